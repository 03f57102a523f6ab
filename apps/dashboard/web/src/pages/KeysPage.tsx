import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConnectedClients } from '../components/ConnectedClients.tsx';
import { ConfirmDialog, DoneNotice } from '../components/ConfirmDialog.tsx';
import { IssuedKeyDialog } from '../components/IssuedKeyDialog.tsx';
import { KeyOptionsFields, keyOptionsInput, noKeyOptions } from '../components/KeyOptionsFields.tsx';
import { Empty, ErrorText, Field, formatTime, Loading, PageTitle, SelectField } from '../components/ui.tsx';
import { useTRPC } from '../trpc.ts';
import { KeyRequestsPanel } from './KeyRequestsPanel.tsx';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

function keyState(key: { revokedAt: string | null; expiresAt: string | null }): 'revoked' | 'expired' | 'active' {
  if (key.revokedAt) return 'revoked';
  return key.expiresAt !== null && new Date(key.expiresAt).getTime() <= Date.now() ? 'expired' : 'active';
}

export function KeysPage({ accountId, role }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const admin = isAdminRole(role);
  const me = useQuery(trpc.auth.me.queryOptions());
  const keys = useQuery(trpc.keys.list.queryOptions({ accountId }));
  const projects = useQuery(trpc.projects.list.queryOptions({ accountId }));
  const [name, setName] = useState('');
  const [projectId, setProjectId] = useState('');
  const [options, setOptions] = useState(noKeyOptions);
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.keys.list.queryKey() });
  const issue = useMutation(trpc.keys.issue.mutationOptions({ onSuccess: async () => { setName(''); await refresh(); } }));
  const [revoking, setRevoking] = useState<{ id: string; name: string; prefix: string } | undefined>();
  const [done, setDone] = useState('');
  const revoke = useMutation(
    trpc.keys.revoke.mutationOptions({
      onSuccess: async () => {
        setDone(revoking ? `Key ${revoking.name} (${revoking.prefix}…) is revoked: assistants using it are refused from now on.` : 'Key revoked.');
        setRevoking(undefined);
        await refresh();
      },
    }),
  );
  const activeProjects = projects.data?.filter((project) => project.active) ?? [];
  const chosenProject = projectId || activeProjects[0]?.id || '';
  return (
    <>
      <PageTitle>Keys</PageTitle>
      <p className="muted">
        A key connects an assistant to one project and acts for the person who issued it. It is shown once, when issued; afterwards only
        its prefix. To set up a key for a colleague, send a key request: the key is theirs once they accept it.
      </p>
      <form
        className="panel row"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          issue.mutate({ accountId, projectId: chosenProject, name, ...keyOptionsInput(options) });
        }}
      >
        <Field label="Key name" placeholder="laptop" required value={name} onChange={(e) => setName(e.target.value)} />
        <SelectField label="Project" value={chosenProject} onChange={(e) => setProjectId(e.target.value)} required>
          {activeProjects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </SelectField>
        <KeyOptionsFields value={options} onChange={setOptions} />
        <button className="primary" type="submit" disabled={issue.isPending || chosenProject === ''}>
          Issue key
        </button>
        <ErrorText error={issue.error} />
      </form>
      <KeyRequestsPanel accountId={accountId} admin={admin} userId={me.data?.id} projects={activeProjects} />
      <IssuedKeyDialog issued={issue.data} onClose={() => issue.reset()} />
      <DoneNotice>{done}</DoneNotice>
      <ErrorText error={keys.error} />
      {keys.isPending ? (
        <Loading what="keys" />
      ) : keys.data?.length === 0 ? (
        <Empty>No keys yet. Issue one to connect an assistant.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Prefix</th>
                <th scope="col">Project</th>
                <th scope="col">Holder</th>
                <th scope="col">Access</th>
                <th scope="col">Expires</th>
                <th scope="col">Created</th>
                <th scope="col">Last used</th>
                <th scope="col">Status</th>
              </tr>
            </thead>
            <tbody>
              {keys.data?.map((key) => (
                <tr key={key.id}>
                  <td>{key.name}</td>
                  <td className="mono">{key.prefix}…</td>
                  <td>{key.projectName}</td>
                  <td>{key.userEmail}</td>
                  <td>{key.readOnly ? 'read-only' : 'full'}</td>
                  <td>{key.expiresAt === null ? 'never' : formatTime(key.expiresAt)}</td>
                  <td>
                    {formatTime(key.createdAt)}
                    <div className="muted">by {key.createdByEmail ?? 'operator'}</div>
                  </td>
                  <td>{formatTime(key.lastUsedAt)}</td>
                  <td>
                    {keyState(key) !== 'active' ? (
                      <span className="badge off">{keyState(key)}</span>
                    ) : (
                      <button
                        type="button"
                        className="danger"
                        aria-label={`Revoke key ${key.name}`}
                        onClick={() => setRevoking({ id: key.id, name: key.name, prefix: key.prefix })}
                      >
                        Revoke
                      </button>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConnectedClients accountId={accountId} />
      <ConfirmDialog
        open={revoking !== undefined}
        title={`Revoke key ${revoking?.name ?? ''}?`}
        confirmLabel="Revoke key"
        typeToConfirm={revoking?.name}
        pending={revoke.isPending}
        error={revoke.error}
        onCancel={() => {
          setRevoking(undefined);
          revoke.reset();
        }}
        onConfirm={() => revoking && revoke.mutate({ accountId, keyId: revoking.id })}
      >
        <p>
          Every assistant using <code>{revoking?.prefix}…</code> is refused at once. A revoked key cannot be turned back on; issue a new one to
          reconnect.
        </p>
      </ConfirmDialog>
    </>
  );
}
