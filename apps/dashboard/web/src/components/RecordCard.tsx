import { useState, type ReactNode } from 'react';
import { Link } from '../router.tsx';
import { formatTime, StatusBadge } from './ui.tsx';

export type RecordView = {
  id: string;
  content: string;
  status: 'unverified' | 'stale' | 'conflict';
  source: string;
  source_id: string | null;
  source_hash: string | null;
  source_revision: string | null;
  fact_key: string | null;
  confidence: number;
  scope: string | null;
  derived_from: string[];
  superseded_by: string | null;
  graph_relations: Array<{ relation: string; direction: string; weight: number; target_id: string; preview: string }>;
  created_at: string;
  versions?: number;
};

/** Where a record's own page is: its id in the path, its project in the query. */
export function recordHref(accountId: string, projectId: string, id: string): string {
  return `/a/${accountId}/records/${id}?project=${projectId}`;
}

const SHORT = 280;

/** Long content is shown shortened, with a button that shows the rest. */
export function RecordContent({ content }: { content: string }) {
  const [open, setOpen] = useState(false);
  if (content.length <= SHORT) return <p className="content">{content}</p>;
  return (
    <p className="content">
      {open ? content : `${content.slice(0, SHORT).trimEnd()}…`}{' '}
      <button type="button" className="link" aria-expanded={open} onClick={() => setOpen(!open)}>
        {open ? 'less' : 'more'}
      </button>
    </p>
  );
}

export function RecordCard({
  record,
  accountId,
  projectId,
  actions,
  heading,
}: {
  record: RecordView;
  accountId: string;
  projectId: string;
  actions?: ReactNode;
  heading?: ReactNode;
}) {
  const href = (id: string) => recordHref(accountId, projectId, id);
  return (
    <article className="record" aria-label={`Record ${record.id}`}>
      {heading}
      <div className="meta">
        <StatusBadge status={record.status} />
        {record.superseded_by ? <span className="badge off">older version</span> : null}
        {record.fact_key ? (
          <span>
            fact_key <code>{record.fact_key}</code>
          </span>
        ) : null}
        {record.scope ? <span>scope {record.scope}</span> : null}
        <span>confidence {record.confidence}</span>
      </div>
      <RecordContent content={record.content} />
      <div className="meta">
        <span>source {record.source}</span>
        {record.source_id ? (
          <span className="wrap">
            from <code>{record.source_id}</code>
          </span>
        ) : null}
        {record.source_hash ? (
          <span className="wrap">
            hash <code>{record.source_hash}</code>
          </span>
        ) : null}
        {record.source_revision ? (
          <span>
            rev <code>{record.source_revision}</code>
          </span>
        ) : null}
        <span>{formatTime(record.created_at)}</span>
      </div>
      {record.derived_from.length > 0 ? (
        <details>
          <summary>Derived from {record.derived_from.length} record(s)</summary>
          <ul>
            {record.derived_from.map((id) => (
              <li key={id} className="mono wrap">
                <Link to={href(id)}>{id}</Link>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {record.graph_relations.length > 0 ? (
        <details>
          <summary>{record.graph_relations.length} graph relation(s)</summary>
          <ul>
            {record.graph_relations.map((relation) => (
              <li key={`${relation.relation}-${relation.direction}-${relation.target_id}`}>
                {relation.relation} ({relation.direction}, weight {relation.weight.toFixed(2)}):{' '}
                <Link to={href(relation.target_id)}>{relation.preview}</Link>
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      <div className="record-actions">
        <Link to={href(record.id)}>
          Open
          {record.versions !== undefined && record.versions > 1 ? ` · ${record.versions} versions` : ''}
          {record.status === 'conflict' ? ' · see the conflict' : ''}
        </Link>
        {actions}
      </div>
    </article>
  );
}
