import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ErrorText, Loading, PageTitle, SelectField } from '../components/ui.tsx';
import { useTRPC } from '../trpc.ts';

const SCOPE_TEXT: Record<string, string> = {
  'memory:read': 'search your memory, validate records against their sources, and search uploaded sessions',
  'memory:write': 'remember new records and forget records',
};

/**
 * The OAuth consent page (/oauth/authorize): the signed-in person picks the organization and project
 * a connector may use and sees what it will be able to do; the server checks the request again on
 * every step and sends the browser back to the client with a code or an error.
 */
export function ConsentPage({ search }: { search: URLSearchParams }) {
  const trpc = useTRPC();
  const params = Object.fromEntries(search.entries());
  const described = useQuery({ ...trpc.oauth.describe.queryOptions({ params }), retry: false });
  const accounts = useQuery(trpc.accounts.list.queryOptions());
  const [accountId, setAccountId] = useState('');
  const chosenAccount = accountId || accounts.data?.[0]?.id || '';
  const projects = useQuery({ ...trpc.projects.list.queryOptions({ accountId: chosenAccount }), enabled: chosenAccount !== '' });
  const [projectId, setProjectId] = useState('');
  const activeProjects = projects.data?.filter((project) => project.active) ?? [];
  const chosenProject = activeProjects.some((project) => project.id === projectId) ? projectId : (activeProjects[0]?.id ?? '');
  const leave = ({ redirectTo }: { redirectTo: string }) => window.location.assign(redirectTo);
  const approve = useMutation(trpc.oauth.approve.mutationOptions({ onSuccess: leave }));
  const deny = useMutation(trpc.oauth.deny.mutationOptions({ onSuccess: leave }));

  if (described.isPending) return <Loading what="the request" />;
  if (described.error) {
    return (
      <main id="main" className="auth-card">
        <section className="panel stack">
          <PageTitle>Connection refused</PageTitle>
          <ErrorText error={described.error} />
        </section>
      </main>
    );
  }
  const request = described.data;
  if (!request.ok) {
    window.location.assign(request.redirectTo);
    return <Loading what="the client" />;
  }
  return (
    <main id="main" className="auth-card">
      <section className="panel stack" aria-labelledby="consent-title">
        <h1 id="consent-title">Connect {request.clientName} to MMW</h1>
        <p>
          <strong>{request.clientName}</strong> <span className="muted">({request.clientId})</span> asks to use your memory, and will
          be sent back to <strong>{request.redirectHost}</strong>.
        </p>
        <p>It will act as you, in the project you pick, seeing what you see. It will be able to:</p>
        <ul>
          {request.scopes.map((scope) => (
            <li key={scope}>
              <span className="mono">{scope}</span>: {SCOPE_TEXT[scope] ?? scope}
            </li>
          ))}
        </ul>
        <SelectField label="Organization" value={chosenAccount} onChange={(event) => setAccountId(event.target.value)} required>
          {accounts.data?.map((account) => (
            <option key={account.id} value={account.id}>
              {account.name}
            </option>
          ))}
        </SelectField>
        <SelectField label="Project" value={chosenProject} onChange={(event) => setProjectId(event.target.value)} required>
          {activeProjects.map((project) => (
            <option key={project.id} value={project.id}>
              {project.name}
            </option>
          ))}
        </SelectField>
        <ErrorText error={approve.error ?? deny.error} />
        <div className="row">
          <button
            className="primary"
            type="button"
            disabled={approve.isPending || chosenProject === ''}
            onClick={() => approve.mutate({ accountId: chosenAccount, projectId: chosenProject, params })}
          >
            Allow
          </button>
          <button type="button" disabled={deny.isPending} onClick={() => deny.mutate({ params })}>
            Deny
          </button>
        </div>
        <p className="muted">You can disconnect it at any time on the Keys page.</p>
      </section>
    </main>
  );
}
