import { useQuery } from '@tanstack/react-query';
import { ProjectPicker, useSelectedProject } from '../components/ProjectPicker.tsx';
import { Empty, ErrorText, formatTime, Loading, PageTitle } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { useTRPC } from '../trpc.ts';
import type { AccountPageProps } from './page-props.ts';
import { Lock } from './VisibilityPage.tsx';

export function WorkspacesPage({ accountId }: AccountPageProps) {
  const trpc = useTRPC();
  const { project, projects } = useSelectedProject(accountId);
  const workspaces = useQuery({
    ...trpc.workspaces.list.queryOptions({ accountId, projectId: project?.id ?? '' }),
    enabled: project !== undefined,
  });
  const visibility = useQuery({
    ...trpc.visibility.get.queryOptions({ accountId, projectId: project?.id ?? '' }),
    enabled: project !== undefined,
  });
  const restricted = new Set(
    visibility.data?.workspaces.filter((space) => space.effective.mode !== 'organization').map((space) => space.workspaceId) ?? [],
  );
  return (
    <>
      <PageTitle>Workspaces</PageTitle>
      <ProjectPicker accountId={accountId} />
      <p className="muted">
        {project ? `Project ${project.name}. ` : ''}A workspace is created by the first record saved in it; counts are the records you may see.
      </p>
      <ErrorText error={workspaces.error ?? projects.error} />
      {projects.isPending || (project !== undefined && workspaces.isPending) ? (
        <Loading what="workspaces" />
      ) : !workspaces.data || workspaces.data.length === 0 ? (
        <Empty>No workspaces yet. An assistant creates one with its first remember call.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Workspace</th>
                <th scope="col">Records</th>
                <th scope="col">Created</th>
              </tr>
            </thead>
            <tbody>
              {workspaces.data.map((workspace) => (
                <tr key={workspace.id}>
                  <td>
                    {restricted.has(workspace.id) ? <Lock /> : null}
                    <Link to={`/a/${accountId}/records?project=${project?.id ?? ''}&workspace=${encodeURIComponent(workspace.name)}`}>
                      {workspace.name}
                    </Link>
                  </td>
                  <td>{workspace.recordCount}</td>
                  <td>{formatTime(workspace.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
