import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Dialog, Empty, ErrorText, Field, formatTime, Loading, PageTitle, SelectField } from '../components/ui.tsx';
import { useTRPC } from '../trpc.ts';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

function CopyButton({ text, label }: { text: string; label: string }) {
  const [copied, setCopied] = useState(false);
  return (
    <button
      type="button"
      onClick={() => {
        void navigator.clipboard?.writeText(text).then(() => setCopied(true));
      }}
    >
      {copied ? 'Copied' : label}
    </button>
  );
}

export function KeysPage({ accountId, role }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const admin = isAdminRole(role);
  const keys = useQuery(trpc.keys.list.queryOptions({ accountId }));
  const projects = useQuery(trpc.projects.list.queryOptions({ accountId }));
  const members = useQuery({ ...trpc.members.list.queryOptions({ accountId }), enabled: admin });
  const [name, setName] = useState('');
  const [projectId, setProjectId] = useState('');
  const [userId, setUserId] = useState('');
  const refresh = () => queryClient.invalidateQueries({ queryKey: trpc.keys.list.queryKey() });
  const issue = useMutation(trpc.keys.issue.mutationOptions({ onSuccess: async () => { setName(''); await refresh(); } }));
  const revoke = useMutation(trpc.keys.revoke.mutationOptions({ onSuccess: refresh }));
  const activeProjects = projects.data?.filter((project) => project.active) ?? [];
  const chosenProject = projectId || activeProjects[0]?.id || '';
  const issued = issue.data;
  return (
    <>
      <PageTitle>Keys</PageTitle>
      <p className="muted">
        A key connects an assistant to one project and acts for one member. It is shown once, when issued; afterwards only its prefix.
      </p>
      <form
        className="panel row"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          issue.mutate({ accountId, projectId: chosenProject, name, ...(userId ? { userId } : {}) });
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
        {admin && members.data ? (
          <SelectField label="Acts for" value={userId} onChange={(e) => setUserId(e.target.value)}>
            <option value="">me</option>
            {members.data
              .filter((member) => member.removedAt === null)
              .map((member) => (
                <option key={member.userId} value={member.userId}>
                  {member.email}
                </option>
              ))}
          </SelectField>
        ) : null}
        <button className="primary" type="submit" disabled={issue.isPending || chosenProject === ''}>
          Issue key
        </button>
        <ErrorText error={issue.error} />
      </form>
      <Dialog
        open={issued !== undefined}
        title="Your new key"
        onClose={() => issue.reset()}
        actions={
          <button className="primary" type="button" onClick={() => issue.reset()}>
            I have copied it
          </button>
        }
      >
        {issued ? (
          <div className="stack">
            <p>
              This is the only time the key is shown. Copy it now; MMW keeps only its prefix <code>{issued.summary.prefix}</code>.
            </p>
            <div className="field">
              <label htmlFor="issued-key">Key</label>
              <pre id="issued-key" className="mono" data-testid="issued-key">
                {issued.key}
              </pre>
            </div>
            <CopyButton text={issued.key} label="Copy key" />
            <div className="field">
              <label htmlFor="issued-command">Add MMW to Claude Code</label>
              <pre id="issued-command" className="mono" data-testid="claude-command">
                {issued.claudeCommand}
              </pre>
            </div>
            <CopyButton text={issued.claudeCommand} label="Copy command" />
          </div>
        ) : null}
      </Dialog>
      <ErrorText error={revoke.error ?? keys.error} />
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
                <th scope="col">Acts for</th>
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
                  <td>
                    {formatTime(key.createdAt)}
                    <div className="muted">by {key.createdByEmail ?? 'operator'}</div>
                  </td>
                  <td>{formatTime(key.lastUsedAt)}</td>
                  <td>
                    {key.revokedAt ? (
                      <span className="badge off">revoked</span>
                    ) : (
                      <button type="button" className="danger" onClick={() => revoke.mutate({ accountId, keyId: key.id })}>
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
    </>
  );
}
