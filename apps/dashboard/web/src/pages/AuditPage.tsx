import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { navigate, useLocation } from '../router.tsx';
import { Empty, ErrorText, Field, formatTime, Loading, PageTitle, SelectField } from '../components/ui.tsx';
import { useTRPC } from '../trpc.ts';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

const actions = [
  'user.signed_up',
  'user.signed_in',
  'user.sign_in_failed',
  'user.password_changed',
  'user.signed_out_everywhere',
  'organization.created',
  'key.issued',
  'key.requested',
  'key.revoked',
  'member.joined',
  'member.role_changed',
  'member.removed',
  'member.left',
  'invitation.created',
  'invitation.revoked',
  'project.created',
  'project.renamed',
  'project.deactivated',
  'project.reactivated',
  'visibility.changed',
  'handover.created',
  'handover.read',
  'record.forgotten',
  'guard.rejected',
  'subscription.changed',
  'billing.checkout_started',
];

interface Filter {
  actorUserId?: string;
  action?: string;
  from?: string;
  to?: string;
}

const toIso = (local: string) => (local === '' ? undefined : new Date(local).toISOString());
/** An ISO time as the value of a datetime-local field, in the reader's time zone. */
const toLocal = (iso: string | undefined) => {
  if (iso === undefined) return '';
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

const FILTER_PARAMS = { actorUserId: 'actor', action: 'action', from: 'from', to: 'to' } as const;

/** The filter lives in the URL (?actor=&action=&from=&to=), so a link shows the same events. */
function useAuditFilter(): { filter: Filter; setFilter: (next: Filter) => void } {
  const { path, search } = useLocation();
  const filter: Filter = {};
  for (const [key, param] of Object.entries(FILTER_PARAMS) as Array<[keyof Filter, string]>) {
    const value = search.get(param);
    if (value) filter[key] = value;
  }
  const setFilter = (next: Filter) => {
    const params = new URLSearchParams();
    for (const [key, param] of Object.entries(FILTER_PARAMS) as Array<[keyof Filter, string]>) {
      const value = next[key];
      if (value) params.set(param, value);
    }
    navigate(params.size > 0 ? `${path}?${params}` : path);
  };
  return { filter, setFilter };
}

/** Who acted: their name and email, else the email, else "the system". */
function actorLabel(event: { actorName: string | null; actorEmail: string | null; actorUserId: string | null }): string {
  if (event.actorEmail !== null) return event.actorName ? `${event.actorName} <${event.actorEmail}>` : event.actorEmail;
  return event.actorUserId === null ? 'MMW (system)' : 'a former user';
}

function summary(data: Record<string, unknown>): string {
  return Object.entries(data)
    .map(([key, value]) => `${key}: ${typeof value === 'string' ? value : JSON.stringify(value)}`)
    .join(', ');
}

export function AuditPage({ accountId, role }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.members.list.queryOptions({ accountId }));
  const { filter, setFilter } = useAuditFilter();
  const [draft, setDraft] = useState({
    actorUserId: filter.actorUserId ?? '',
    action: filter.action ?? '',
    from: toLocal(filter.from),
    to: toLocal(filter.to),
  });
  const [cursors, setCursors] = useState<number[]>([]);
  const cursor = cursors.at(-1);
  const page = useQuery({
    ...trpc.audit.list.queryOptions({ accountId, ...filter, limit: 25, ...(cursor === undefined ? {} : { cursor }) }),
    enabled: isAdminRole(role),
  });
  const [exportError, setExportError] = useState<unknown>(null);
  if (!isAdminRole(role)) {
    return (
      <>
        <PageTitle>Audit log</PageTitle>
        <p role="alert">Only owners and admins read the audit log.</p>
      </>
    );
  }
  const apply = (event: FormEvent) => {
    event.preventDefault();
    setCursors([]);
    const next: Filter = {};
    if (draft.actorUserId) next.actorUserId = draft.actorUserId;
    if (draft.action) next.action = draft.action;
    const from = toIso(draft.from);
    const to = toIso(draft.to);
    if (from) next.from = from;
    if (to) next.to = to;
    setFilter(next);
  };
  const download = async () => {
    setExportError(null);
    try {
      const file = await queryClient.fetchQuery(trpc.audit.exportCsv.queryOptions({ accountId, ...filter }));
      const url = URL.createObjectURL(new Blob([file.csv], { type: 'text/csv' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = file.filename;
      link.click();
      URL.revokeObjectURL(url);
    } catch (error) {
      setExportError(error);
    }
  };
  return (
    <>
      <PageTitle>Audit log</PageTitle>
      <form className="panel row" onSubmit={apply} aria-label="Filter the audit log">
        <SelectField label="Actor" value={draft.actorUserId} onChange={(e) => setDraft({ ...draft, actorUserId: e.target.value })}>
          <option value="">anyone</option>
          {members.data?.map((member) => (
            <option key={member.userId} value={member.userId}>
              {member.name ? `${member.name} <${member.email}>` : member.email}
            </option>
          ))}
        </SelectField>
        <SelectField label="Action" value={draft.action} onChange={(e) => setDraft({ ...draft, action: e.target.value })}>
          <option value="">any</option>
          {actions.map((action) => (
            <option key={action} value={action}>
              {action}
            </option>
          ))}
        </SelectField>
        <Field label="From" type="datetime-local" value={draft.from} onChange={(e) => setDraft({ ...draft, from: e.target.value })} />
        <Field label="To" type="datetime-local" value={draft.to} onChange={(e) => setDraft({ ...draft, to: e.target.value })} />
        <button className="primary" type="submit">
          Apply filters
        </button>
        <button type="button" onClick={() => void download()}>
          Export CSV
        </button>
      </form>
      <ErrorText error={page.error ?? exportError} />
      {page.isPending ? (
        <Loading what="audit log" />
      ) : page.data?.events.length === 0 ? (
        <Empty>No events match.</Empty>
      ) : (
        <div className="table-wrap" tabIndex={0} role="region" aria-label="Audit events">
          <table>
            <thead>
              <tr>
                <th scope="col">Time</th>
                <th scope="col">Action</th>
                <th scope="col">Actor</th>
                <th scope="col">Target</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {page.data?.events.map((event) => (
                <tr key={event.id}>
                  <td className="nowrap">{formatTime(event.createdAt)}</td>
                  <td className="mono">{event.action}</td>
                  <td className="wrap">
                    {actorLabel(event)}
                    {event.actorKeyId ? <div className="muted">via key</div> : null}
                  </td>
                  <td className="wrap">
                    {event.targetType === null ? (
                      '—'
                    ) : (
                      <>
                        <span className="muted">{event.targetType.replace('_', ' ')}</span> {event.targetName ?? 'no longer known'}
                      </>
                    )}
                  </td>
                  <td className="muted wrap">{summary(event.data)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav className="row" aria-label="Pages" style={{ marginTop: '0.8rem' }}>
        <button type="button" disabled={cursors.length === 0} onClick={() => setCursors(cursors.slice(0, -1))}>
          Newer
        </button>
        <button
          type="button"
          disabled={!page.data?.nextCursor}
          onClick={() => page.data?.nextCursor && setCursors([...cursors, page.data.nextCursor])}
        >
          Older
        </button>
      </nav>
    </>
  );
}
