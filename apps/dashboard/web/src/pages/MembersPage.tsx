import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Dialog, Empty, ErrorText, Field, formatTime, Loading, PageTitle, RoleBadge, SelectField } from '../components/ui.tsx';
import { navigate } from '../router.tsx';
import { useTRPC } from '../trpc.ts';
import { isAdminRole, type AccountPageProps } from './page-props.ts';

type Role = 'owner' | 'admin' | 'member';

export function MembersPage({ accountId, role, kind }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const admin = isAdminRole(role);
  const me = useQuery(trpc.auth.me.queryOptions());
  const members = useQuery(trpc.members.list.queryOptions({ accountId }));
  const invitations = useQuery({ ...trpc.invitations.list.queryOptions({ accountId }), enabled: admin });
  const refresh = () => queryClient.invalidateQueries();
  const [email, setEmail] = useState('');
  const [inviteRole, setInviteRole] = useState<Role>('member');
  const [removing, setRemoving] = useState<{ userId: string; email: string } | undefined>();
  const [receiver, setReceiver] = useState('');
  const invite = useMutation(trpc.invitations.create.mutationOptions({ onSuccess: async () => { setEmail(''); await refresh(); } }));
  const revoke = useMutation(trpc.invitations.revoke.mutationOptions({ onSuccess: refresh }));
  const changeRole = useMutation(trpc.members.changeRole.mutationOptions({ onSuccess: refresh }));
  const remove = useMutation(trpc.members.remove.mutationOptions({ onSuccess: async () => { setRemoving(undefined); setReceiver(''); await refresh(); } }));
  const leave = useMutation(trpc.accounts.leave.mutationOptions({ onSuccess: async () => { await refresh(); navigate('/'); } }));
  const active = members.data?.filter((member) => member.removedAt === null) ?? [];
  return (
    <>
      <PageTitle>Members</PageTitle>
      {kind === 'personal' ? <p className="muted">A personal account has one member. Create an organization to work with others.</p> : null}
      {admin && kind === 'organization' ? (
        <form
          className="panel row"
          onSubmit={(event: FormEvent) => {
            event.preventDefault();
            invite.mutate({ accountId, email, role: inviteRole });
          }}
        >
          <Field label="Invite by email" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
          <SelectField label="Role" value={inviteRole} onChange={(e) => setInviteRole(e.target.value as Role)}>
            <option value="member">member</option>
            <option value="admin">admin</option>
            {role === 'owner' ? <option value="owner">owner</option> : null}
          </SelectField>
          <button className="primary" type="submit" disabled={invite.isPending}>
            Create invitation
          </button>
          <ErrorText error={invite.error} />
          {invite.data ? (
            <div className="field" style={{ flexBasis: '100%' }}>
              <label htmlFor="invite-link">Send this link to {invite.data.invitation.email} (valid 7 days)</label>
              <pre id="invite-link" data-testid="invite-link">
                {invite.data.link}
              </pre>
            </div>
          ) : null}
        </form>
      ) : null}
      <ErrorText error={members.error ?? changeRole.error ?? leave.error} />
      {members.isPending ? (
        <Loading what="members" />
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">Actions</th>
              </tr>
            </thead>
            <tbody>
              {members.data?.map((member) => (
                <tr key={member.userId}>
                  <td>
                    {member.email}
                    {member.emailVerified ? null : (
                      <span className="badge off" title="Nobody has proven this address yet (attached by the operator)">
                        email unverified
                      </span>
                    )}
                    {member.name ? <div className="muted">{member.name}</div> : null}
                  </td>
                  <td>
                    {member.removedAt !== null ? (
                      <span className="badge off">left {formatTime(member.removedAt)}</span>
                    ) : admin && member.userId !== me.data?.id ? (
                      <select
                        aria-label={`Role of ${member.email}`}
                        value={member.role}
                        onChange={(e) => changeRole.mutate({ accountId, userId: member.userId, role: e.target.value as Role })}
                      >
                        <option value="member">member</option>
                        <option value="admin">admin</option>
                        <option value="owner">owner</option>
                      </select>
                    ) : (
                      <RoleBadge role={member.role} />
                    )}
                  </td>
                  <td>{formatTime(member.joinedAt)}</td>
                  <td>
                    {member.removedAt !== null ? null : member.userId === me.data?.id ? (
                      kind === 'organization' ? (
                        <button type="button" className="danger" onClick={() => leave.mutate({ accountId })}>
                          Leave
                        </button>
                      ) : null
                    ) : admin ? (
                      <button type="button" className="danger" onClick={() => setRemoving({ userId: member.userId, email: member.email })}>
                        Remove
                      </button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {admin && kind === 'organization' ? (
        <>
          <h2>Invitations</h2>
          <ErrorText error={revoke.error ?? invitations.error} />
          {invitations.isPending ? (
            <Loading what="invitations" />
          ) : invitations.data?.length === 0 ? (
            <Empty>No invitations yet.</Empty>
          ) : (
            <div className="table-wrap">
              <table>
                <thead>
                  <tr>
                    <th scope="col">Email</th>
                    <th scope="col">Role</th>
                    <th scope="col">Status</th>
                    <th scope="col">Expires</th>
                    <th scope="col">Actions</th>
                  </tr>
                </thead>
                <tbody>
                  {invitations.data?.map((invitation) => (
                    <tr key={invitation.id}>
                      <td>{invitation.email}</td>
                      <td>
                        <RoleBadge role={invitation.role} />
                      </td>
                      <td>{invitation.status}</td>
                      <td>{formatTime(invitation.expiresAt)}</td>
                      <td>
                        {invitation.status === 'pending' ? (
                          <button type="button" className="danger" onClick={() => revoke.mutate({ accountId, invitationId: invitation.id })}>
                            Revoke
                          </button>
                        ) : null}
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </>
      ) : null}
      <Dialog
        open={removing !== undefined}
        title={`Remove ${removing?.email ?? ''}?`}
        onClose={() => setRemoving(undefined)}
        actions={
          <>
            <button type="button" onClick={() => setRemoving(undefined)}>
              Cancel
            </button>
            <button
              type="button"
              className="danger"
              disabled={remove.isPending}
              onClick={() => removing && remove.mutate({ accountId, userId: removing.userId, ...(receiver ? { receiverUserId: receiver } : {}) })}
            >
              Remove member
            </button>
          </>
        }
      >
        <p>Their keys stop working at once. Their records stay, with their authorship.</p>
        <SelectField label="Hand their knowledge over to" value={receiver} onChange={(e) => setReceiver(e.target.value)}>
          <option value="">nobody for now (choose later under Handover)</option>
          {active
            .filter((member) => member.userId !== removing?.userId)
            .map((member) => (
              <option key={member.userId} value={member.userId}>
                {member.email}
              </option>
            ))}
        </SelectField>
        <ErrorText error={remove.error} />
      </Dialog>
    </>
  );
}
