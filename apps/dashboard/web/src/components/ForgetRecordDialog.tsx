import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTRPC } from '../trpc.ts';
import { Dialog, ErrorText, Field } from './ui.tsx';

/** Forget (the soft delete, audited), asked first; the same rule as the MCP tool. */
export function ForgetRecordDialog({
  accountId,
  projectId,
  record,
  onClose,
  onForgotten,
}: {
  accountId: string;
  projectId: string;
  record: { id: string; content: string } | undefined;
  onClose: () => void;
  onForgotten?: () => void;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const forget = useMutation(
    trpc.workspaces.forget.mutationOptions({
      onSuccess: async () => {
        setReason('');
        onClose();
        onForgotten?.();
        await queryClient.invalidateQueries({ queryKey: trpc.workspaces.pathKey() });
      },
    }),
  );
  return (
    <Dialog
      open={record !== undefined}
      title="Forget this record?"
      onClose={onClose}
      actions={
        <>
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button
            type="button"
            className="danger"
            disabled={forget.isPending}
            onClick={() => record && forget.mutate({ accountId, projectId, id: record.id, ...(reason ? { reason } : {}) })}
          >
            Forget
          </button>
        </>
      }
    >
      <p>The record leaves search for everyone. The fact that it was forgotten stays in the audit log, without its content.</p>
      <blockquote className="muted">{record?.content}</blockquote>
      <Field label="Reason (optional, kept in the audit log)" value={reason} maxLength={500} onChange={(e) => setReason(e.target.value)} />
      <ErrorText error={forget.error} />
    </Dialog>
  );
}
