import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTRPC } from '../trpc.ts';
import { DoneNotice } from './ConfirmDialog.tsx';
import { ErrorText, Field } from './ui.tsx';

/** The owner renames the organization; its members, projects, keys and records stay as they are. */
export function RenameOrganization({ accountId }: { accountId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accounts = useQuery(trpc.accounts.list.queryOptions());
  const current = accounts.data?.find((account) => account.id === accountId)?.name ?? '';
  const [name, setName] = useState<string | undefined>();
  const rename = useMutation(
    trpc.accounts.rename.mutationOptions({
      onSuccess: async () => {
        setName(undefined);
        await queryClient.invalidateQueries({ queryKey: trpc.accounts.list.queryKey() });
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    rename.mutate({ accountId, name: name ?? current });
  };
  return (
    <form className="panel stack" onSubmit={submit}>
      <h2 style={{ marginTop: 0 }}>Organization name</h2>
      <p className="muted">Members see the new name at once. Keys, projects and records are not affected.</p>
      <div className="row">
        <Field label="Name" required maxLength={100} value={name ?? current} onChange={(e) => setName(e.target.value)} />
        <button type="submit" disabled={rename.isPending || name === undefined || name.trim() === current}>
          Rename
        </button>
      </div>
      <ErrorText error={rename.error} />
      <DoneNotice>{rename.data ? `Renamed to ${rename.data.name}.` : ''}</DoneNotice>
    </form>
  );
}
