import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog, DoneNotice } from '../components/ConfirmDialog.tsx';
import { Empty, ErrorText, formatTime, Loading, PageTitle, SelectField } from '../components/ui.tsx';
import { useTRPC } from '../trpc.ts';
import type { AccountPageProps } from './page-props.ts';

export function HandoverPage({ accountId }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const members = useQuery(trpc.members.list.queryOptions({ accountId }));
  const handovers = useQuery(trpc.handover.list.queryOptions({ accountId }));
  const [receivers, setReceivers] = useState<Record<string, string>>({});
  const [asking, setAsking] = useState<{ fromUserId: string; fromEmail: string; toUserId: string; toEmail: string } | undefined>();
  const [done, setDone] = useState('');
  const create = useMutation(
    trpc.handover.create.mutationOptions({
      onSuccess: async () => {
        setDone(asking ? `${asking.fromEmail}'s knowledge now reads as ${asking.toEmail}'s.` : 'Handed over.');
        setAsking(undefined);
        await queryClient.invalidateQueries();
      },
    }),
  );
  const former = members.data?.filter((member) => member.removedAt !== null) ?? [];
  const active = members.data?.filter((member) => member.removedAt === null) ?? [];
  const handedTo = (userId: string) => handovers.data?.find((handover) => handover.fromUserId === userId)?.toEmail;
  return (
    <>
      <PageTitle>Handover</PageTitle>
      <p className="muted">
        When someone leaves, their records stay and keep their author. Hand them over to a colleague: the records then read as if
        the receiver had written them, under the receiver's visibility. Reads of handed-over knowledge are counted in the audit log.
      </p>
      <DoneNotice>{done}</DoneNotice>
      <ErrorText error={members.error ?? handovers.error} />
      <h2>Former members</h2>
      {members.isPending ? (
        <Loading what="members" />
      ) : former.length === 0 ? (
        <Empty>Nobody has left this organization.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">Former member</th>
                <th scope="col">Left</th>
                <th scope="col">Hand over to</th>
              </tr>
            </thead>
            <tbody>
              {former.map((member) => (
                <tr key={member.userId}>
                  <td>{member.email}</td>
                  <td>{formatTime(member.removedAt)}</td>
                  <td>
                    {handedTo(member.userId) !== undefined ? (
                      <span className="muted">handed over to {handedTo(member.userId)}</span>
                    ) : (
                    <form
                      className="row"
                      onSubmit={(event) => {
                        event.preventDefault();
                        const toUserId = receivers[member.userId] ?? active[0]?.userId;
                        const toEmail = active.find((candidate) => candidate.userId === toUserId)?.email;
                        if (toUserId && toEmail) setAsking({ fromUserId: member.userId, fromEmail: member.email, toUserId, toEmail });
                      }}
                    >
                      <SelectField
                        label={`Receiver for ${member.email}`}
                        value={receivers[member.userId] ?? active[0]?.userId ?? ''}
                        onChange={(e) => setReceivers({ ...receivers, [member.userId]: e.target.value })}
                      >
                        {active.map((candidate) => (
                          <option key={candidate.userId} value={candidate.userId}>
                            {candidate.email}
                          </option>
                        ))}
                      </SelectField>
                      <button type="submit" className="primary" disabled={create.isPending}>
                        Hand over
                      </button>
                    </form>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <h2>Handovers</h2>
      {handovers.isPending ? (
        <Loading what="handovers" />
      ) : handovers.data?.length === 0 ? (
        <Empty>No knowledge has been handed over yet.</Empty>
      ) : (
        <div className="table-wrap">
          <table>
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {handovers.data?.map((handover) => (
                <tr key={handover.id}>
                  <td>{handover.fromEmail}</td>
                  <td>{handover.toEmail}</td>
                  <td>{formatTime(handover.createdAt)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <ConfirmDialog
        open={asking !== undefined}
        title={`Hand ${asking?.fromEmail ?? ''}'s knowledge over to ${asking?.toEmail ?? ''}?`}
        confirmLabel="Hand over"
        typeToConfirm={asking?.toEmail}
        pending={create.isPending}
        error={create.error}
        onCancel={() => {
          setAsking(undefined);
          create.reset();
        }}
        onConfirm={() => asking && create.mutate({ accountId, fromUserId: asking.fromUserId, toUserId: asking.toUserId })}
      >
        <p>
          {asking?.toEmail} will read every record {asking?.fromEmail} wrote, author-only ones included, as if they had written them. A handover is
          done once and cannot be undone here; it ends only if {asking?.fromEmail} rejoins.
        </p>
      </ConfirmDialog>
    </>
  );
}
