import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { IssuedKeyDialog } from '../components/IssuedKeyDialog.tsx';
import { KeyOptionsFields, keyOptionsInput, noKeyOptions } from '../components/KeyOptionsFields.tsx';
import { ErrorText, Field, SelectField } from '../components/ui.tsx';
import { useTRPC } from '../trpc.ts';

/**
 * Key requests: an admin sets up a key for a colleague, who accepts it and sees the key once; the
 * key is theirs from then on, as every key acts for the person who issued it.
 */
export function KeyRequestsPanel({ accountId, admin, userId, projects }: {
  accountId: string;
  admin: boolean;
  userId: string | undefined;
  projects: Array<{ id: string; name: string }>;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const requests = useQuery(trpc.keys.requests.queryOptions({ accountId }));
  const members = useQuery({ ...trpc.members.list.queryOptions({ accountId }), enabled: admin });
  const [name, setName] = useState('');
  const [memberId, setMemberId] = useState('');
  const [projectId, setProjectId] = useState('');
  const [options, setOptions] = useState(noKeyOptions);
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: trpc.keys.requests.queryKey() });
    await queryClient.invalidateQueries({ queryKey: trpc.keys.list.queryKey() });
  };
  const request = useMutation(trpc.keys.request.mutationOptions({ onSuccess: async () => { setName(''); await refresh(); } }));
  const accept = useMutation(trpc.keys.acceptRequest.mutationOptions({ onSuccess: refresh }));
  const close = useMutation(trpc.keys.closeRequest.mutationOptions({ onSuccess: refresh }));
  const colleagues = members.data?.filter((member) => member.removedAt === null && member.userId !== userId) ?? [];
  const chosenMember = memberId || colleagues[0]?.userId || '';
  const chosenProject = projectId || projects[0]?.id || '';
  const pending = requests.data ?? [];
  return (
    <section aria-label="Key requests" className="stack">
      {admin && colleagues.length > 0 ? (
        <form
          className="panel row"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            request.mutate({ accountId, projectId: chosenProject, name, userId: chosenMember, ...keyOptionsInput(options) });
          }}
        >
          <Field label="Requested key name" placeholder="laptop" required value={name} onChange={(e) => setName(e.target.value)} />
          <SelectField label="Colleague" value={chosenMember} onChange={(e) => setMemberId(e.target.value)}>
            {colleagues.map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.email}
              </option>
            ))}
          </SelectField>
          <SelectField label="Project of the request" value={chosenProject} onChange={(e) => setProjectId(e.target.value)}>
            {projects.map((project) => (
              <option key={project.id} value={project.id}>
                {project.name}
              </option>
            ))}
          </SelectField>
          <KeyOptionsFields value={options} onChange={setOptions} />
          <button type="submit" disabled={request.isPending || chosenProject === ''}>
            Send key request
          </button>
          <ErrorText error={request.error} />
        </form>
      ) : null}
      {pending.length > 0 ? (
        <ul className="panel stack" aria-label="Pending key requests">
          {pending.map((row) => (
            <li key={row.id} className="row">
              <span>
                <strong>{row.name}</strong> for {row.userEmail} in {row.projectName}
                {row.readOnly ? ', read-only' : ''}
                {row.expiresInDays === null ? '' : `, expires ${row.expiresInDays} days after acceptance`}
                {row.requestedByEmail ? ` (asked by ${row.requestedByEmail})` : ''}
              </span>
              {row.userId === userId ? (
                <button className="primary" type="button" onClick={() => accept.mutate({ accountId, requestId: row.id })}>
                  Accept key {row.name}
                </button>
              ) : null}
              <button type="button" onClick={() => close.mutate({ accountId, requestId: row.id })}>
                {row.userId === userId ? 'Decline' : 'Withdraw'}
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      <ErrorText error={accept.error ?? close.error ?? requests.error} />
      <IssuedKeyDialog issued={accept.data} onClose={() => accept.reset()} />
    </section>
  );
}
