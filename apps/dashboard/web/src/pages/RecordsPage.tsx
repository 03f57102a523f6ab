import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent, type ReactNode } from 'react';
import { useSelectedProject } from '../components/ProjectPicker.tsx';
import { PurgeRecordDialog } from '../components/PurgeRecordDialog.tsx';
import { Dialog, Empty, ErrorText, Field, formatTime, Loading, PageTitle, StatusBadge } from '../components/ui.tsx';
import { Link, useLocation } from '../router.tsx';
import { useTRPC } from '../trpc.ts';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

type Rec = {
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
  score?: number | undefined;
  graph_relations: Array<{ relation: string; direction: string; weight: number; target_id: string; preview: string }>;
  created_at: string;
};

function Versions({ accountId, projectId, workspace, factKey }: { accountId: string; projectId: string; workspace: string; factKey: string }) {
  const trpc = useTRPC();
  const versions = useQuery(trpc.workspaces.versions.queryOptions({ accountId, projectId, workspace, factKey }));
  if (versions.isPending) return <Loading what="versions" />;
  if (versions.error) return <ErrorText error={versions.error} />;
  return (
    <ol>
      {versions.data.map((version) => (
        <li key={version.id}>
          <StatusBadge status={version.status} /> {version.content}{' '}
          <span className="muted">
            ({formatTime(version.created_at)}
            {version.superseded_by ? ', superseded' : ', newest'})
          </span>
        </li>
      ))}
    </ol>
  );
}

/** Versions are fetched when the reader opens them, not for every record shown. */
function VersionsDetails({ factKey, versions }: { factKey: string; versions: (factKey: string) => ReactNode }) {
  const [open, setOpen] = useState(false);
  return (
    <details onToggle={(event) => setOpen(event.currentTarget.open)}>
      <summary>Versions of {factKey}</summary>
      {open ? versions(factKey) : null}
    </details>
  );
}

function RecordCard({
  record,
  onForget,
  onPurge,
  versions,
}: {
  record: Rec;
  onForget: () => void;
  onPurge: (() => void) | undefined;
  versions: (factKey: string) => ReactNode;
}) {
  return (
    <article className="record" aria-label={`Record ${record.id}`}>
      <div className="meta">
        <StatusBadge status={record.status} />
        {record.superseded_by ? <span className="badge off">older version</span> : null}
        {record.fact_key ? <span>fact_key <code>{record.fact_key}</code></span> : null}
        {record.scope ? <span>scope {record.scope}</span> : null}
        <span>confidence {record.confidence}</span>
      </div>
      <p className="content">{record.content}</p>
      <div className="meta">
        <span>source {record.source}</span>
        {record.source_id ? <span>from <code>{record.source_id}</code></span> : null}
        {record.source_hash ? <span>hash <code>{record.source_hash}</code></span> : null}
        {record.source_revision ? <span>rev <code>{record.source_revision}</code></span> : null}
        <span>{formatTime(record.created_at)}</span>
      </div>
      {record.derived_from.length > 0 ? (
        <details>
          <summary>Derived from {record.derived_from.length} record(s)</summary>
          <ul>
            {record.derived_from.map((id) => (
              <li key={id} className="mono">
                {id}
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
                {relation.relation} ({relation.direction}, weight {relation.weight.toFixed(2)}): {relation.preview}
              </li>
            ))}
          </ul>
        </details>
      ) : null}
      {record.fact_key ? <VersionsDetails factKey={record.fact_key} versions={versions} /> : null}
      <div style={{ marginTop: '0.5rem' }}>
        <button type="button" className="danger" onClick={onForget}>
          Forget
        </button>{' '}
        {onPurge ? (
          <button type="button" className="danger" onClick={onPurge}>
            Purge
          </button>
        ) : null}
      </div>
    </article>
  );
}

export function RecordsPage({ accountId, role }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { project } = useSelectedProject(accountId);
  const { search } = useLocation();
  const workspace = search.get('workspace') ?? 'default';
  const [draft, setDraft] = useState('');
  const [query, setQuery] = useState('');
  const [forgetting, setForgetting] = useState<Rec | undefined>();
  const [purging, setPurging] = useState<Rec | undefined>();
  const [reason, setReason] = useState('');
  const projectId = project?.id ?? '';
  const results = useQuery({
    ...trpc.workspaces.search.queryOptions({ accountId, projectId, workspace, query, limit: 50 }),
    enabled: project !== undefined,
  });
  const forget = useMutation(
    trpc.workspaces.forget.mutationOptions({
      onSuccess: async () => {
        setForgetting(undefined);
        setReason('');
        await queryClient.invalidateQueries({ queryKey: trpc.workspaces.pathKey() });
      },
    }),
  );
  return (
    <>
      <PageTitle>{`Records in ${workspace}`}</PageTitle>
      <p>
        <Link to={`/a/${accountId}/workspaces?project=${projectId}`}>← Workspaces{project ? ` of ${project.name}` : ''}</Link>
      </p>
      <form
        className="panel row"
        role="search"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          setQuery(draft);
        }}
      >
        <Field label="Search records" type="search" placeholder="how do we deploy staging?" value={draft} onChange={(e) => setDraft(e.target.value)} />
        <button className="primary" type="submit">
          Search
        </button>
      </form>
      <p className="muted" aria-live="polite">
        {query === '' ? 'Latest records' : `Results for “${query}”`}
        {results.data ? ` · ${results.data.result.length} shown` : ''}
      </p>
      <ErrorText error={results.error} />
      {results.isPending ? (
        <Loading what="records" />
      ) : results.data?.result.length === 0 ? (
        <Empty>{query === '' ? 'No records you may see in this workspace.' : 'Nothing found. Try other words.'}</Empty>
      ) : (
        results.data?.result.map((record) => (
          <RecordCard
            key={record.id}
            record={record}
            onForget={() => setForgetting(record)}
            onPurge={isAdminRole(role) ? () => setPurging(record) : undefined}
            versions={(factKey) => <Versions accountId={accountId} projectId={projectId} workspace={workspace} factKey={factKey} />}
          />
        ))
      )}
      <Dialog
        open={forgetting !== undefined}
        title="Forget this record?"
        onClose={() => setForgetting(undefined)}
        actions={
          <>
            <button type="button" onClick={() => setForgetting(undefined)}>
              Cancel
            </button>
            <button
              type="button"
              className="danger"
              disabled={forget.isPending}
              onClick={() => forgetting && forget.mutate({ accountId, projectId, id: forgetting.id, ...(reason ? { reason } : {}) })}
            >
              Forget
            </button>
          </>
        }
      >
        <p>The record leaves search for everyone. The fact that it was forgotten stays in the audit log, without its content.</p>
        <blockquote className="muted">{forgetting?.content}</blockquote>
        <Field label="Reason (optional, kept in the audit log)" value={reason} onChange={(e) => setReason(e.target.value)} />
        <ErrorText error={forget.error} />
      </Dialog>
      <PurgeRecordDialog accountId={accountId} projectId={projectId} record={purging} onClose={() => setPurging(undefined)} />
    </>
  );
}
