import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../components/ConfirmDialog.tsx';
import { TwoFactorSettings } from '../components/TwoFactorSettings.tsx';
import { ErrorText, Field, PageTitle } from '../components/ui.tsx';
import { navigate } from '../router.tsx';
import { useTRPC } from '../trpc.ts';

export function SettingsPage() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [orgName, setOrgName] = useState('');
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const createOrg = useMutation(
    trpc.accounts.createOrganization.mutationOptions({
      onSuccess: async (account) => {
        await queryClient.invalidateQueries({ queryKey: trpc.accounts.list.queryKey() });
        navigate(`/a/${account.id}/projects`);
      },
    }),
  );
  const changePassword = useMutation(
    trpc.auth.changePassword.mutationOptions({
      onSuccess: () => {
        setCurrent('');
        setNext('');
      },
    }),
  );
  const [askEverywhere, setAskEverywhere] = useState(false);
  const everywhere = useMutation(
    trpc.auth.signOutEverywhere.mutationOptions({
      onSuccess: async ({ endedSessions }) => {
        queryClient.clear();
        navigate(`/signin?signedOut=${endedSessions}`, { replace: true });
        await queryClient.invalidateQueries();
      },
    }),
  );
  return (
    <>
      <PageTitle>Settings</PageTitle>
      <form
        className="panel stack"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          createOrg.mutate({ name: orgName });
        }}
      >
        <h2 style={{ marginTop: 0 }}>Create an organization</h2>
        <p className="muted">An organization is an account with members, roles, projects and keys of its own. You become its owner.</p>
        <div className="row">
          <Field label="Organization name" required value={orgName} onChange={(e) => setOrgName(e.target.value)} />
          <button className="primary" type="submit" disabled={createOrg.isPending}>
            Create organization
          </button>
        </div>
        <ErrorText error={createOrg.error} />
      </form>
      <form
        className="panel stack"
        onSubmit={(event: FormEvent) => {
          event.preventDefault();
          changePassword.mutate({ currentPassword: current, newPassword: next });
        }}
      >
        <h2 style={{ marginTop: 0 }}>Change password</h2>
        <p className="muted">Your other sessions end; this one stays signed in.</p>
        <div className="row">
          <Field label="Current password" type="password" autoComplete="current-password" required value={current} onChange={(e) => setCurrent(e.target.value)} />
          <Field label="New password" type="password" autoComplete="new-password" minLength={8} required value={next} onChange={(e) => setNext(e.target.value)} />
          <button type="submit" disabled={changePassword.isPending}>
            Change password
          </button>
        </div>
        <ErrorText error={changePassword.error} />
        {changePassword.data ? (
          <p className="notice" role="status">
            Password changed; {changePassword.data.endedSessions} other session(s) ended.
          </p>
        ) : null}
      </form>
      <TwoFactorSettings />
      <section className="panel stack">
        <h2 style={{ marginTop: 0 }}>Sessions</h2>
        <p className="muted">Sign out of MMW on every browser and device, this one included.</p>
        <div>
          <button className="danger" type="button" onClick={() => setAskEverywhere(true)} disabled={everywhere.isPending}>
            Sign out everywhere
          </button>
        </div>
      </section>
      <ConfirmDialog
        open={askEverywhere}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        pending={everywhere.isPending}
        error={everywhere.error}
        onCancel={() => {
          setAskEverywhere(false);
          everywhere.reset();
        }}
        onConfirm={() => everywhere.mutate({})}
      >
        <p>Every session of your account ends, on every browser and device, this one included. Keys keep working.</p>
      </ConfirmDialog>
    </>
  );
}
