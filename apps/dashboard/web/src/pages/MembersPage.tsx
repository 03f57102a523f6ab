import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog, DoneNotice } from '../components/ConfirmDialog.tsx';
import { CopyButton } from '../components/CopyButton.tsx';
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
  const [done, setDone] = useState('');
  const [roleChange, setRoleChange] = useState<{ userId: string; email: string; from: Role; to: Role } | undefined>();
  const [leaving, setLeaving] = useState(false);
  const [link, setLink] = useState<{ email: string; link: string } | undefined>();
  const invite = useMutation(
    trpc.invitations.create.mutationOptions({
      onSuccess: async (created) => {
        setEmail('');
        setLink({ email: created.invitation.email, link: created.link });
        setDone(`Invitation created for ${created.invitation.email} and mailed; you can also copy its link.`);
        await refresh();
      },
    }),
  );
  const resend = useMutation(
    trpc.invitations.resend.mutationOptions({
      onSuccess: async (sent) => {
        setLink({ email: sent.invitation.email, link: sent.link });
        setDone(`A new link was mailed to ${sent.invitation.email}; the earlier link no longer works.`);
        await refresh();
      },
    }),
  );
  const revoke = useMutation(
    trpc.invitations.revoke.mutationOptions({
      onSuccess: async () => {
        setLink(undefined);
        setDone('Invitation revoked; its link no longer works.');
        await refresh();
      },
    }),
  );
  const changeRole = useMutation(
    trpc.members.changeRole.mutationOptions({
      onSuccess: async (_result, input) => {
        const changed = roleChange;
        setRoleChange(undefined);
        setDone(changed ? `${changed.email} is now ${input.role}.` : 'Role changed.');
        await refresh();
      },
    }),
  );
  const remove = useMutation(
    trpc.members.remove.mutationOptions({
      onSuccess: async (_result, input) => {
        const who = removing?.email ?? 'The member';
        const to = active.find((member) => member.userId === input.receiverUserId)?.email;
        setRemoving(undefined);
        setReceiver('');
        setDone(`${who} was removed; their keys stopped working.${to ? ` Their knowledge now reads as ${to}'s.` : ''}`);
        await refresh();
      },
    }),
  );
  const leave = useMutation(trpc.accounts.leave.mutationOptions({ onSuccess: async () => { await refresh(); navigate('/?notice=left'); } }));
  const openInvitations = invitations.data?.filter((invitation) => invitation.status === 'pending' || invitation.status === 'expired') ?? [];
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
          {link ? (
            <div className="stack" style={{ flexBasis: '100%' }}>
              <div className="field">
                <label htmlFor="invite-link">Send this link to {link.email} (valid 7 days)</label>
                <pre id="invite-link" data-testid="invite-link">
                  {link.link}
                </pre>
              </div>
              <CopyButton text={link.link} label="Copy link" />
            </div>
          ) : null}
        </form>
      ) : null}
      <DoneNotice>{done}</DoneNotice>
      <ErrorText error={members.error} />
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
                        onChange={(e) => setRoleChange({ userId: member.userId, email: member.email, from: member.role, to: e.target.value as Role })}
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
                        <button type="button" className="danger" onClick={() => setLeaving(true)}>
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
          <p className="muted">An invitation stays here until it is accepted or revoked. Resend gives it a new link and seven more days.</p>
          <ErrorText error={revoke.error ?? resend.error ?? invitations.error} />
          {invitations.isPending ? (
            <Loading what="invitations" />
          ) : openInvitations.length === 0 ? (
            <Empty>No open invitations.</Empty>
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
                  {openInvitations.map((invitation) => (
                    <tr key={invitation.id}>
                      <td>{invitation.email}</td>
                      <td>
                        <RoleBadge role={invitation.role} />
                      </td>
                      <td>{invitation.status}</td>
                      <td>{formatTime(invitation.expiresAt)}</td>
                      <td>
                        <div className="actions">
                          <button
                            type="button"
                            onClick={() => resend.mutate({ accountId, invitationId: invitation.id })}
                            disabled={resend.isPending}
                            aria-label={`Resend the invitation for ${invitation.email}`}
                          >
                            Resend
                          </button>
                          <button
                            type="button"
                            className="danger"
                            onClick={() => revoke.mutate({ accountId, invitationId: invitation.id })}
                            aria-label={`Revoke the invitation for ${invitation.email}`}
                          >
                            Revoke
                          </button>
                        </div>
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
        <p>
          Their keys stop working at once and they lose access to this organization. Their records stay, with their authorship. A knowledge
          handover is done once and cannot be undone here.
        </p>
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
      <ConfirmDialog
        open={roleChange !== undefined}
        title={roleChange?.to === 'owner' ? `Make ${roleChange.email} an owner?` : `Change the role of ${roleChange?.email ?? ''}?`}
        confirmLabel={roleChange?.to === 'owner' ? 'Make owner' : `Make ${roleChange?.to ?? ''}`}
        typeToConfirm={roleChange?.to === 'owner' ? roleChange.email : undefined}
        danger={roleChange?.to === 'owner' || roleChange?.from === 'owner'}
        pending={changeRole.isPending}
        error={changeRole.error}
        onCancel={() => {
          setRoleChange(undefined);
          changeRole.reset();
        }}
        onConfirm={() => roleChange && changeRole.mutate({ accountId, userId: roleChange.userId, role: roleChange.to })}
      >
        {roleChange?.to === 'owner' ? (
          <p>
            An owner has every right you have: billing, deleting the organization, making and removing owners, removing you. Only another owner
            can take it back.
          </p>
        ) : roleChange?.to === 'admin' ? (
          <p>An admin manages members, projects, keys, visibility, handovers and the audit log.</p>
        ) : (
          <p>A member uses the organization&apos;s memory and issues their own keys; they no longer manage it.</p>
        )}
      </ConfirmDialog>
      <ConfirmDialog
        open={leaving}
        title="Leave this organization?"
        confirmLabel="Leave organization"
        pending={leave.isPending}
        error={leave.error}
        onCancel={() => {
          setLeaving(false);
          leave.reset();
        }}
        onConfirm={() => leave.mutate({ accountId })}
      >
        <p>
          You lose access at once and your keys for it stop working. Your records stay, with your authorship; an admin may hand them over to a
          colleague. To come back you need a new invitation.
        </p>
      </ConfirmDialog>
    </>
  );
}
