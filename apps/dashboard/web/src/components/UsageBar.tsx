import { useId } from 'react';

const number = (value: number) => value.toLocaleString('en-US');

/** How much of a plan's allowance is used: a bar with the numbers beside it, and no bar without a limit. */
export function UsageBar({ label, used, limit, note }: { label: string; used: number; limit: number | null; note?: string }) {
  const id = useId();
  const share = limit === null || limit === 0 ? 0 : Math.min(1, used / limit);
  const level = share >= 1 ? 'full' : share >= 0.8 ? 'high' : 'ok';
  return (
    <div className="usage" data-testid={`usage-${label.toLowerCase().replace(/\s+/g, '-')}`}>
      <div className="usage-label">
        <span id={id}>{label}</span>
        <span className="usage-numbers">
          {limit === null ? `${number(used)} · no limit` : `${number(used)} of ${number(limit)}${note === undefined ? '' : ` ${note}`}`}
        </span>
      </div>
      <div
        className={`usage-track ${level}`}
        role="progressbar"
        aria-labelledby={id}
        aria-valuemin={0}
        aria-valuemax={limit ?? undefined}
        aria-valuenow={used}
        aria-valuetext={limit === null ? `${number(used)}, no limit` : `${number(used)} of ${number(limit)}`}
      >
        <div className="usage-fill" style={{ width: `${Math.max(share * 100, used > 0 && limit !== null ? 0.8 : 0)}%` }} />
      </div>
    </div>
  );
}
