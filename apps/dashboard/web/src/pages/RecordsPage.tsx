import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useSelectedProject } from '../components/ProjectPicker.tsx';
import { ForgetRecordDialog } from '../components/ForgetRecordDialog.tsx';
import { PurgeRecordDialog } from '../components/PurgeRecordDialog.tsx';
import { RecordCard, type RecordView } from '../components/RecordCard.tsx';
import { Empty, ErrorText, Field, Loading, PageTitle, SelectField } from '../components/ui.tsx';
import { Link, navigate, useLocation } from '../router.tsx';
import { useTRPC } from '../trpc.ts';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

const PAGE_SIZE = 20;
const FILTERS = ['q', 'status', 'scope', 'fact_key', 'source'] as const;
type Filters = Record<(typeof FILTERS)[number], string>;
type Status = 'unverified' | 'stale' | 'conflict';
const isStatus = (value: string): value is Status => value === 'unverified' || value === 'stale' || value === 'conflict';

/** The search and the filters live in the URL, so a link or a reload shows the same records. */
function useRecordFilters() {
  const { path, search } = useLocation();
  const current = Object.fromEntries(FILTERS.map((name) => [name, search.get(name) ?? ''])) as Filters;
  const page = Math.max(1, Number.parseInt(search.get('page') ?? '1', 10) || 1);
  const go = (next: Partial<Filters> & { page?: number }) => {
    const params = new URLSearchParams(search);
    for (const [name, value] of Object.entries(next)) {
      if (value === '' || value === undefined || (name === 'page' && value === 1)) params.delete(name);
      else params.set(name, String(value));
    }
    if (next.page === undefined) params.delete('page');
    navigate(`${path}?${params}`);
  };
  return { current, page, go };
}

function FilterForm({ current, onApply }: { current: Filters; onApply: (next: Filters) => void }) {
  const [draft, setDraft] = useState(current);
  const set = (name: keyof Filters) => (event: { target: { value: string } }) => setDraft({ ...draft, [name]: event.target.value });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onApply(draft);
  };
  return (
    <form className="panel stack" role="search" onSubmit={submit} aria-label="Search and filter records">
      <div className="row">
        <Field label="Search records" type="search" placeholder="how do we deploy staging?" value={draft.q} maxLength={2000} onChange={set('q')} />
        <button className="primary" type="submit">
          Search
        </button>
      </div>
      <div className="row">
        <SelectField label="Status" value={draft.status} onChange={set('status')}>
          <option value="">any</option>
          <option value="conflict">conflict</option>
          <option value="stale">stale</option>
          <option value="unverified">unverified</option>
        </SelectField>
        <Field label="Scope" value={draft.scope} maxLength={100} onChange={set('scope')} />
        <Field label="fact_key" value={draft.fact_key} maxLength={200} onChange={set('fact_key')} />
        <Field label="Source" placeholder="agent" value={draft.source} maxLength={100} onChange={set('source')} />
        <button type="submit">Apply filters</button>
      </div>
    </form>
  );
}

function Pager({ page, pages, go }: { page: number; pages: number; go: (page: number) => void }) {
  if (pages <= 1) return null;
  return (
    <nav className="row pager" aria-label="Pages">
      <button type="button" disabled={page <= 1} onClick={() => go(page - 1)}>
        Previous page
      </button>
      <span>
        Page {page} of {pages}
      </span>
      <button type="button" disabled={page >= pages} onClick={() => go(page + 1)}>
        Next page
      </button>
    </nav>
  );
}

export function RecordsPage({ accountId, role }: AccountPageProps) {
  const trpc = useTRPC();
  const { project } = useSelectedProject(accountId);
  const { search } = useLocation();
  const workspace = search.get('workspace') ?? 'default';
  const { current, page, go } = useRecordFilters();
  const [forgetting, setForgetting] = useState<RecordView | undefined>();
  const [purging, setPurging] = useState<RecordView | undefined>();
  const projectId = project?.id ?? '';
  const searching = current.q.trim() !== '';
  const filters = {
    ...(isStatus(current.status) ? { status: current.status } : {}),
    ...(current.scope ? { scope: current.scope } : {}),
    ...(current.fact_key ? { factKey: current.fact_key } : {}),
    ...(current.source ? { source: current.source } : {}),
  };
  const browsed = useQuery({
    ...trpc.workspaces.browse.queryOptions({ accountId, projectId, workspace, page, pageSize: PAGE_SIZE, ...filters }),
    enabled: project !== undefined && !searching,
  });
  const found = useQuery({
    ...trpc.workspaces.search.queryOptions({ accountId, projectId, workspace, query: current.q, limit: 50, ...(current.scope ? { scope: current.scope } : {}) }),
    enabled: project !== undefined && searching,
  });
  const active = searching ? found : browsed;
  const shown: RecordView[] = (searching ? found.data?.result : browsed.data?.records) ?? [];
  const total = browsed.data?.total ?? 0;
  const pages = Math.max(1, Math.ceil(total / PAGE_SIZE));
  return (
    <>
      <PageTitle>{`Records in ${workspace}`}</PageTitle>
      <p>
        <Link to={`/a/${accountId}/workspaces?project=${projectId}`}>← Workspaces{project ? ` of ${project.name}` : ''}</Link>
      </p>
      <FilterForm key={search.toString()} current={current} onApply={(next) => go(next)} />
      <p className="muted" aria-live="polite" data-testid="records-summary">
        {searching
          ? `Results for “${current.q}”${found.data ? ` · ${found.data.result.length} found` : ''}`
          : browsed.data
            ? `${browsed.data.totalCapped ? 'More than ' : ''}${total} record${total === 1 ? '' : 's'} · page ${page} of ${pages} · older versions folded under the newest`
            : 'Latest records'}
      </p>
      <ErrorText error={active.error} />
      {active.isPending ? (
        <Loading what="records" />
      ) : shown.length === 0 ? (
        <Empty>{searching ? 'Nothing found. Try other words.' : 'No records you may see match.'}</Empty>
      ) : (
        shown.map((record) => (
          <RecordCard
            key={record.id}
            record={record}
            accountId={accountId}
            projectId={projectId}
            actions={
              <>
                <button type="button" className="danger" onClick={() => setForgetting(record)}>
                  Forget
                </button>
                {isAdminRole(role) ? (
                  <button type="button" className="danger" onClick={() => setPurging(record)}>
                    Purge
                  </button>
                ) : null}
              </>
            }
          />
        ))
      )}
      {searching ? null : <Pager page={page} pages={pages} go={(next) => go({ ...current, page: next })} />}
      <ForgetRecordDialog accountId={accountId} projectId={projectId} record={forgetting} onClose={() => setForgetting(undefined)} />
      <PurgeRecordDialog accountId={accountId} projectId={projectId} record={purging} onClose={() => setPurging(undefined)} />
    </>
  );
}
