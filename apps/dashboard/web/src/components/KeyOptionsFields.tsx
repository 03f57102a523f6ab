import { SelectField } from './ui.tsx';

export interface KeyOptionsState {
  readOnly: boolean;
  expiresInDays: number | undefined;
}

export const noKeyOptions: KeyOptionsState = { readOnly: false, expiresInDays: undefined };

const expiries = [7, 30, 90, 365];

/** What an issuer chooses besides the name: read-only access and an expiry. */
export function KeyOptionsFields({ value, onChange }: { value: KeyOptionsState; onChange: (next: KeyOptionsState) => void }) {
  return (
    <>
      <SelectField
        label="Access"
        value={value.readOnly ? 'read' : 'full'}
        onChange={(e) => onChange({ ...value, readOnly: e.target.value === 'read' })}
      >
        <option value="full">remember and search</option>
        <option value="read">read-only (search, validate)</option>
      </SelectField>
      <SelectField
        label="Expires"
        value={value.expiresInDays === undefined ? '' : String(value.expiresInDays)}
        onChange={(e) => onChange({ ...value, expiresInDays: e.target.value === '' ? undefined : Number(e.target.value) })}
      >
        <option value="">never</option>
        {expiries.map((days) => (
          <option key={days} value={days}>
            in {days} days
          </option>
        ))}
      </SelectField>
    </>
  );
}

/** The options as the API takes them: no expiresInDays when there is none. */
export function keyOptionsInput(value: KeyOptionsState): { readOnly: boolean; expiresInDays?: number } {
  return value.expiresInDays === undefined ? { readOnly: value.readOnly } : { readOnly: value.readOnly, expiresInDays: value.expiresInDays };
}
