import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ForgetRecordDialog } from '../components/ForgetRecordDialog.tsx';
import { useSelectedProject } from '../components/ProjectPicker.tsx';
import { RecordCard, recordHref, type RecordView } from '../components/RecordCard.tsx';
import { Dialog, ErrorText, formatTime, Loading, PageTitle, StatusBadge } from '../components/ui.tsx';
import { Link, navigate, useLocation } from '../router.tsx';
import { useTRPC } from '../trpc.ts';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

type Resolution = { keep: RecordView; drop: RecordView };

const RESOLVED = 'Conflict resolved: the other version was forgotten.';

/** One record at its own address: its versions, what it conflicts with (side by side), its sources. */
export function RecordPage({ accountId, role, recordId }: AccountPageProps & { recordId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { project } = useSelectedProject(accountId);
  const projectId = project?.id ?? '';
  const [forgetting, setForgetting] = useState<RecordView | undefined>();
  const [resolving, setResolving] = useState<Resolution | undefined>();
  // Keeping the other version moves to its page: the word of what happened goes along in the address.
  const { search } = useLocation();
  const [done, setDone] = useState(search.get('resolved') === '1' ? RESOLVED : '');
  const page = useQuery({ ...trpc.workspaces.record.queryOptions({ accountId, projectId, id: recordId }), enabled: project !== undefined });
  const resolve = useMutation(
    trpc.workspaces.resolveConflict.mutationOptions({
      onSuccess: async () => {
        setDone(RESOLVED);
        if (resolving && resolving.drop.id === recordId) navigate(`${recordHref(accountId, projectId, resolving.keep.id)}&resolved=1`, { replace: true });
        setResolving(undefined);
        await queryClient.invalidateQueries({ queryKey: trpc.workspaces.pathKey() });
      },
    }),
  );
  const data = page.data;
  const workspace = data?.record.workspace ?? '';
  const back = `/a/${accountId}/records?project=${projectId}&workspace=${encodeURIComponent(workspace)}`;
  const admin = isAdminRole(role);
  return (
    <>
      <PageTitle>Record</PageTitle>
      {data ? (
        <p>
          <Link to={back}>← Records in {workspace}</Link>
        </p>
      ) : null}
      <ErrorText error={page.error} />
      {done ? (
        <p className="notice" role="status">
          {done}
        </p>
      ) : null}
      {page.isPending ? <Loading what="record" /> : null}
      {data ? (
        <>
          <RecordCard
            record={data.record}
            accountId={accountId}
            projectId={projectId}
            actions={
              <button type="button" className="danger" onClick={() => setForgetting(data.record)}>
                Forget
              </button>
            }
          />
          {data.conflictsWith.length > 0 ? (
            <section aria-labelledby="conflict-heading">
              <h2 id="conflict-heading">In conflict: {data.conflictsWith.length + 1} versions of {data.record.fact_key} say different things</h2>
              <p className="muted">
                {admin
                  ? 'Keep the version that is right: the other one is forgotten (it leaves search; the audit log keeps the fact).'
                  : 'An owner or admin can resolve it by keeping one version.'}
              </p>
              {data.conflictsWith.map((other) => (
                <div className="side-by-side" key={other.id} role="group" aria-label={`Conflict with record ${other.id}`}>
                  {[data.record, other].map((version, i) => {
                    const counterpart = i === 0 ? other : data.record;
                    return (
                      <RecordCard
                        key={version.id}
                        record={version}
                        accountId={accountId}
                        projectId={projectId}
                        heading={<h3 className="card-heading">{i === 0 ? 'This record' : 'Conflicts with'}</h3>}
                        actions={
                          admin ? (
                            <button type="button" onClick={() => setResolving({ keep: version, drop: counterpart })}>
                              Keep this one
                            </button>
                          ) : null
                        }
                      />
                    );
                  })}
                </div>
              ))}
            </section>
          ) : null}
          {data.versions.length > 1 ? (
            <section aria-labelledby="versions-heading">
              <h2 id="versions-heading">Versions of {data.record.fact_key}</h2>
              <ol className="versions">
                {data.versions.map((version) => (
                  <li key={version.id}>
                    <StatusBadge status={version.status} />{' '}
                    {version.id === data.record.id ? <strong>this record</strong> : <Link to={recordHref(accountId, projectId, version.id)}>{version.content.slice(0, 120)}</Link>}{' '}
                    <span className="muted">({formatTime(version.created_at)})</span>
                  </li>
                ))}
              </ol>
            </section>
          ) : null}
          {data.sources.length > 0 ? (
            <section aria-labelledby="sources-heading">
              <h2 id="sources-heading">Derived from</h2>
              <ul>
                {data.sources.map((source) => (
                  <li key={source.id}>
                    <Link to={recordHref(accountId, projectId, source.id)}>{source.preview}</Link>
                  </li>
                ))}
              </ul>
            </section>
          ) : null}
        </>
      ) : null}
      <ForgetRecordDialog
        accountId={accountId}
        projectId={projectId}
        record={forgetting}
        onClose={() => setForgetting(undefined)}
        onForgotten={() => navigate(back)}
      />
      <Dialog
        open={resolving !== undefined}
        title="Keep this version and forget the other?"
        onClose={() => setResolving(undefined)}
        actions={
          <>
            <button type="button" onClick={() => setResolving(undefined)}>
              Cancel
            </button>
            <button
              type="button"
              className="danger"
              disabled={resolve.isPending}
              onClick={() => resolving && resolve.mutate({ accountId, projectId, keepId: resolving.keep.id, forgetId: resolving.drop.id })}
            >
              Forget the other
            </button>
          </>
        }
      >
        <p>Kept:</p>
        <blockquote>{resolving?.keep.content}</blockquote>
        <p>Forgotten (leaves search for everyone; the audit log keeps the fact, without the content):</p>
        <blockquote className="muted">{resolving?.drop.content}</blockquote>
        <ErrorText error={resolve.error} />
      </Dialog>
    </>
  );
}
