import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ProjectPicker, useSelectedProject } from '../components/ProjectPicker.tsx';
import { Empty, ErrorText, formatTime, Loading, PageTitle } from '../components/ui.tsx';
import { useTRPC } from '../trpc.ts';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

/** Session history uploaded by mmw-agent, for the selected project; its uploader or an admin deletes it. */
export function SessionsPage({ accountId, role }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const { project, projects } = useSelectedProject(accountId);
  const sessions = useQuery({
    ...trpc.sessions.list.queryOptions({ accountId, projectId: project?.id ?? '' }),
    enabled: project !== undefined,
  });
  const remove = useMutation(
    trpc.sessions.delete.mutationOptions({
      onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.sessions.list.queryKey() }),
    }),
  );
  return (
    <>
      <PageTitle>Sessions</PageTitle>
      <ProjectPicker accountId={accountId} />
      <p className="muted">
        Claude Code and Codex sessions uploaded by mmw-agent with their owner&apos;s consent, searchable with the search_sessions tool.{' '}
        {isAdminRole(role) ? 'As an owner or admin you see every member’s sessions.' : 'You see the sessions you uploaded.'}
      </p>
      <ErrorText error={sessions.error ?? projects.error ?? remove.error} />
      {projects.isPending || (project !== undefined && sessions.isPending) ? (
        <Loading what="sessions" />
      ) : !sessions.data || sessions.data.length === 0 ? (
        <Empty>No sessions uploaded yet. Run `mmw-agent consent`, then `mmw-agent sync`, on your computer.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Tool</th>
                <th scope="col">Folder</th>
                <th scope="col">Uploaded by</th>
                <th scope="col">Messages</th>
                <th scope="col">Last message</th>
                <th scope="col">
                  Actions
                </th>
              </tr>
            </thead>
            <tbody>
              {sessions.data.map((session) => (
                <tr key={session.id}>
                  <td>{session.tool}</td>
                  <td>{session.projectPath ?? '—'}</td>
                  <td>{session.uploaderEmail}</td>
                  <td>{session.messageCount}</td>
                  <td>{formatTime(session.lastMessageAt)}</td>
                  <td>
                    <button
                      type="button"
                      className="danger"
                      disabled={remove.isPending}
                      onClick={() => remove.mutate({ accountId, sessionId: session.id })}
                    >
                      Delete
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </>
  );
}
