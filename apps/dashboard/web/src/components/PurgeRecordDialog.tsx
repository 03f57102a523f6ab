import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc.ts';
import { Dialog, ErrorText, Field } from './ui.tsx';

/** Erasure of one record, for owners and admins: the id is typed again, since it cannot be undone. */
export function PurgeRecordDialog({
  accountId,
  projectId,
  record,
  onClose,
}: {
  accountId: string;
  projectId: string;
  record: { id: string; content: string } | undefined;
  onClose: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [typed, setTyped] = useState('');
  const close = () => {
    setTyped('');
    onClose();
  };
  const purge = useMutation(
    trpc.workspaces.purge.mutationOptions({
      onSuccess: async () => {
        close();
        await queryClient.invalidateQueries({ queryKey: trpc.workspaces.pathKey() });
      },
    }),
  );
  return (
    <Dialog
      open={record !== undefined}
      title="Purge this record for good?"
      onClose={close}
      actions={
        <>
          <button type="button" onClick={close}>
            Cancel
          </button>
          <button
            type="button"
            className="danger"
            disabled={purge.isPending || record === undefined || typed.trim() !== record.id}
            onClick={() => record && purge.mutate({ accountId, projectId, id: record.id, confirmId: typed })}
          >
            Purge
          </button>
        </>
      }
    >
      <p>
        The record&apos;s content and fields, its graph relations and previews, its jobs and its idempotency answers are
        removed from the database. Only the fact that you purged it stays in the audit log. This cannot be undone.
      </p>
      <blockquote className="muted">{record?.content}</blockquote>
      <p>
        Type the record&apos;s id to confirm: <code>{record?.id}</code>
      </p>
      <Field label="Record id to confirm" autoComplete="off" value={typed} onChange={(e) => setTyped(e.target.value)} />
      <ErrorText error={purge.error} />
    </Dialog>
  );
}
