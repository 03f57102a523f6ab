import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorText, formatTime, Loading } from './ui.tsx';
import { useTRPC } from '../trpc.ts';

/** Connectors (Claude.ai, ChatGPT) connected through OAuth: listed beside the keys, revocable here. */
export function ConnectedClients({ accountId }: { accountId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const clients = useQuery(trpc.oauth.clients.queryOptions({ accountId }));
  const revoke = useMutation(
    trpc.oauth.revokeClient.mutationOptions({ onSuccess: () => queryClient.invalidateQueries({ queryKey: trpc.oauth.clients.queryKey() }) }),
  );
  if (clients.isPending) return <Loading what="connected clients" />;
  if (clients.data?.length === 0) return null;
  return (
    <section aria-labelledby="connected-clients">
      <h2 id="connected-clients">Connected clients</h2>
      <ErrorText error={revoke.error ?? clients.error} />
      <div className="table-wrap">
        <table>
          <thead>
            <tr>
              <th scope="col">Client</th>
              <th scope="col">Project</th>
              <th scope="col">Person</th>
              <th scope="col">Can</th>
              <th scope="col">Connected</th>
              <th scope="col">Last used</th>
              <th scope="col">Status</th>
            </tr>
          </thead>
          <tbody>
            {clients.data?.map((client) => (
              <tr key={client.id}>
                <td>
                  {client.clientName}
                  <div className="muted mono">{client.clientId}</div>
                </td>
                <td>{client.projectName}</td>
                <td>{client.userEmail}</td>
                <td className="mono">{client.scopes.join(' ')}</td>
                <td>{formatTime(client.createdAt)}</td>
                <td>{formatTime(client.lastUsedAt)}</td>
                <td>
                  {client.revokedAt !== null ? (
                    <span className="badge off">revoked</span>
                  ) : (
                    <button type="button" className="danger" onClick={() => revoke.mutate({ accountId, grantId: client.id })}>
                      Disconnect
                    </button>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
