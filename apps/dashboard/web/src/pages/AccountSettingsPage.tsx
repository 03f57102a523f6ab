import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { RenameOrganization } from '../components/RenameOrganization.tsx';
import { ErrorText, Field, PageTitle } from '../components/ui.tsx';
import { useTRPC } from '../trpc.ts';
import { navigate } from '../router.tsx';
import type { AccountPageProps } from './page-props.ts';

/** Every page of the owner's export, joined: one JSON Lines file of the records they may read. */
function useRecordsExport(accountId: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [error, setError] = useState<unknown>(null);
  const [rows, setRows] = useState<number | undefined>();
  const download = async () => {
    setError(null);
    try {
      const parts: string[] = [];
      let after: string | undefined;
      let count = 0;
      do {
        const page = await queryClient.fetchQuery(trpc.accounts.exportRecords.queryOptions({ accountId, ...(after ? { after } : {}) }));
        parts.push(page.jsonl);
        count += page.rows;
        after = page.nextAfter ?? undefined;
      } while (after !== undefined);
      const url = URL.createObjectURL(new Blob(parts, { type: 'application/jsonl' }));
      const link = document.createElement('a');
      link.href = url;
      link.download = `mmw-records-${new Date().toISOString().slice(0, 10)}.jsonl`;
      link.click();
      URL.revokeObjectURL(url);
      setRows(count);
    } catch (caught) {
      setError(caught);
    }
  };
  return { download, error, rows };
}

/** The owner's switch: every member of the organization must have two-factor sign-in. */
function TwoFactorRequirement({ accountId }: { accountId: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accounts = useQuery(trpc.accounts.list.queryOptions());
  const required = accounts.data?.find((account) => account.id === accountId)?.requireTwoFactor === true;
  const change = useMutation(
    trpc.accounts.setTwoFactorRequirement.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries({ queryKey: trpc.accounts.list.queryKey() });
      },
    }),
  );
  return (
    <section className="panel stack">
      <h2 style={{ marginTop: 0 }}>Two-factor sign-in</h2>
      <p className="muted">
        {required
          ? 'Required: members without two-factor sign-in are asked to set it up before they use this organization.'
          : 'Not required. When it is, members without two-factor sign-in are asked to set it up first. Set it up for yourself before requiring it.'}
      </p>
      <div>
        <button type="button" onClick={() => change.mutate({ accountId, required: !required })} disabled={change.isPending || accounts.isPending}>
          {required ? 'Stop requiring two-factor sign-in' : 'Require two-factor sign-in'}
        </button>
      </div>
      <ErrorText error={change.error} />
    </section>
  );
}

export function AccountSettingsPage({ accountId, role, kind }: AccountPageProps) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [confirmName, setConfirmName] = useState('');
  const exported = useRecordsExport(accountId);
  const remove = useMutation(
    trpc.accounts.delete.mutationOptions({
      onSuccess: async () => {
        queryClient.clear();
        navigate(kind === 'personal' ? '/signin' : '/?notice=deleted', { replace: true });
        await queryClient.invalidateQueries();
      },
    }),
  );
  if (role !== 'owner') {
    return (
      <>
        <PageTitle>Account</PageTitle>
        <p className="muted">Only an owner manages the account&apos;s export and deletion.</p>
      </>
    );
  }
  return (
    <>
      <PageTitle>Account</PageTitle>
      {kind === 'organization' ? <RenameOrganization accountId={accountId} /> : null}
      {kind === 'organization' ? <TwoFactorRequirement accountId={accountId} /> : null}
      <section className="panel stack">
        <h2 style={{ marginTop: 0 }}>Export records</h2>
        <p className="muted">A JSON Lines file of every record of this account that you may read, forgotten ones included.</p>
        <div>
          <button type="button" onClick={() => void exported.download()}>
            Download records (JSON Lines)
          </button>
        </div>
        {exported.rows === undefined ? null : (
          <p className="notice" role="status">
            {exported.rows} record(s) exported.
          </p>
        )}
        <ErrorText error={exported.error} />
      </section>
      <form
        className="panel stack"
        onSubmit={(event) => {
          event.preventDefault();
          remove.mutate({ accountId, confirmName });
        }}
      >
        <h2 style={{ marginTop: 0 }}>Delete this account</h2>
        <p>
          Every project, workspace, record, key, member, invitation and audit event of this account is removed for good.
          {kind === 'personal'
            ? ' Your sign-in to MMW is closed too.'
            : ' Every key stops working at once; members keep their own MMW accounts and other organizations, but lose everything of this one.'}{' '}
          The audit keeps only that the account was deleted, by whom and when. This cannot be undone: download the records first if you need them.
        </p>
        <Field label="Type the account's name to confirm" autoComplete="off" value={confirmName} onChange={(e) => setConfirmName(e.target.value)} />
        <div>
          <button className="danger" type="submit" disabled={remove.isPending || confirmName.trim() === ''}>
            Delete account for good
          </button>
        </div>
        <ErrorText error={remove.error} />
      </form>
    </>
  );
}
