import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog, DoneNotice } from '../components/ConfirmDialog.tsx';
import { ConnectPanel } from '../components/ConnectPanel.tsx';
import { Empty, ErrorText, Field, formatTime, Loading, PageTitle } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { useTRPC } from '../trpc.ts';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

export function ProjectsPage({ accountId, role }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const admin = isAdminRole(role);
  const projects = useQuery(trpc.projects.list.queryOptions({ accountId }));
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.projects.list.queryKey() });
  const [name, setName] = useState('');
  const [renaming, setRenaming] = useState<{ id: string; name: string } | undefined>();
  const create = useMutation(trpc.projects.create.mutationOptions({ onSuccess: async () => { setName(''); await refresh(); } }));
  const rename = useMutation(trpc.projects.rename.mutationOptions({ onSuccess: async () => { setRenaming(undefined); await refresh(); } }));
  const [deactivating, setDeactivating] = useState<{ id: string; name: string } | undefined>();
  const [done, setDone] = useState('');
  const setActive = useMutation(
    trpc.projects.setActive.mutationOptions({
      onSuccess: async (_result, input) => {
        const name = projects.data?.find((project) => project.id === input.projectId)?.name ?? 'The project';
        setDone(input.active ? `${name} is active again; its keys work.` : `${name} is deactivated: its keys are refused until you reactivate it.`);
        setDeactivating(undefined);
        await refresh();
      },
    }),
  );
  const firstProject = projects.data?.find((project) => project.active);
  return (
    <>
      <PageTitle>Projects</PageTitle>
      <ConnectPanel accountId={accountId} projectId={firstProject?.id} projectName={firstProject?.name} />
      <p className="muted">A key is bound to one project; an assistant with that key sees only that project's workspaces.</p>
      {admin ? (
        <form
          className="panel row"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            create.mutate({ accountId, name });
          }}
        >
          <Field label="New project name" required value={name} onChange={(e) => setName(e.target.value)} />
          <button className="primary" type="submit" disabled={create.isPending}>
            Create project
          </button>
          <ErrorText error={create.error} />
        </form>
      ) : null}
      <DoneNotice>{done}</DoneNotice>
      <ErrorText error={rename.error ?? (deactivating ? undefined : setActive.error) ?? projects.error} />
      {projects.isPending ? (
        <Loading what="projects" />
      ) : projects.data?.length === 0 ? (
        <Empty>No projects yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {projects.data?.map((project) => (
                <tr key={project.id}>
                  <td>
                    {renaming?.id === project.id ? (
                      <form
                        className="row"
                        onSubmit={(event: FormEvent) => {
                          event.preventDefault();
                          rename.mutate({ accountId, projectId: project.id, name: renaming.name });
                        }}
                      >
                        <Field label={`New name for ${project.name}`} value={renaming.name} autoFocus onChange={(e) => setRenaming({ id: project.id, name: e.target.value })} />
                        <button type="submit">Save</button>
                        <button type="button" onClick={() => setRenaming(undefined)}>
                          Cancel
                        </button>
                      </form>
                    ) : (
                      <Link to={`/a/${accountId}/workspaces?project=${project.id}`}>{project.name}</Link>
                    )}
                  </td>
                  <td>{project.active ? <span className="badge role">active</span> : <span className="badge off">deactivated</span>}</td>
                  <td>{formatTime(project.createdAt)}</td>
                  <td>
                    {admin ? (
                      <div className="actions">
                        <button type="button" onClick={() => setRenaming({ id: project.id, name: project.name })}>
                          Rename
                        </button>
                        <button
                          type="button"
                          className={project.active ? 'danger' : undefined}
                          onClick={() =>
                            project.active
                              ? setDeactivating({ id: project.id, name: project.name })
                              : setActive.mutate({ accountId, projectId: project.id, active: true })
                          }
                        >
                          {project.active ? 'Deactivate' : 'Reactivate'}
                        </button>
                      </div>
                    ) : (
                      <span className="muted">—</span>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={deactivating !== undefined}
        title={`Deactivate project ${deactivating?.name ?? ''}?`}
        confirmLabel="Deactivate project"
        pending={setActive.isPending}
        error={setActive.error}
        onCancel={() => {
          setDeactivating(undefined);
          setActive.reset();
        }}
        onConfirm={() => deactivating && setActive.mutate({ accountId, projectId: deactivating.id, active: false })}
      >
        <p>
          Every key of this project is refused until you reactivate it. Its workspaces and records are kept; reactivating brings the keys back.
        </p>
      </ConfirmDialog>
    </>
  );
}
