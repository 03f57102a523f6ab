import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link, navigate, useLocation } from '../router.tsx';
import { useTRPC } from '../trpc.ts';

const sections = [
  ['projects', 'Projects'],
  ['keys', 'Keys'],
  ['workspaces', 'Workspaces & records'],
  ['sessions', 'Sessions'],
  ['members', 'Members'],
  ['visibility', 'Visibility'],
  ['handover', 'Handover', 'admin'],
  ['audit', 'Audit log', 'admin'],
  ['portability', 'Export & import', 'admin'],
  ['billing', 'Billing'],
  ['account', 'Account', 'admin'],
] as const;

export function Shell({
  user,
  accountId,
  children,
}: {
  user: { email: string };
  accountId: string | undefined;
  children: ReactNode;
}) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const accounts = useQuery(trpc.accounts.list.queryOptions());
  const { path, search } = useLocation();
  const current = accounts.data?.find((account) => account.id === accountId);
  const admin = current?.role === 'owner' || current?.role === 'admin';
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({
      onSettled: async () => {
        queryClient.clear();
        navigate('/signin', { replace: true });
        await queryClient.invalidateQueries();
      },
    }),
  );
  const page = path.split('/')[3] ?? 'projects';
  return (
    <>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <Link to="/" className="brand">
          MMW
        </Link>
        <label htmlFor="account-switcher" className="label-small-hidden">
          Organization
        </label>
        <select
          id="account-switcher"
          value={accountId ?? ''}
          onChange={(event) => navigate(`/a/${event.target.value}/${page === 'records' ? 'workspaces' : page}`)}
        >
          {accountId === undefined ? <option value="">Choose an account</option> : null}
          {accounts.data?.map((account) => (
            <option key={account.id} value={account.id}>
              {account.kind === 'personal' ? `${account.name} (personal)` : account.name}
            </option>
          ))}
        </select>
        <Link to="/settings">New organization</Link>
        <span className="spacer" />
        <span className="who hide-small">{user.email}</span>
        <Link to="/settings" className="hide-small">
          Settings
        </Link>
        <button type="button" className="link" onClick={() => signOut.mutate({})} disabled={signOut.isPending}>
          Sign out
        </button>
      </header>
      <div className="layout">
        <nav className="sidenav" aria-label="Sections">
          {accountId === undefined
            ? null
            : sections
                .filter((section) => section[2] === undefined || admin)
                .map(([slug, label]) => (
                  <Link key={slug} to={`/a/${accountId}/${slug}`} aria-current={page === slug || (slug === 'workspaces' && page === 'records') ? 'page' : undefined}>
                    {label}
                  </Link>
                ))}
          <Link to="/settings">Settings</Link>
        </nav>
        <main id="main">
          <AccountNotice notice={search.get('notice')} />
          {children}
        </main>
      </div>
    </>
  );
}

/** What happened to the organization the person came from, said where they land. */
const accountNotices: Record<string, string> = {
  'not-a-member': 'You are not a member of that organization (any more): this is your own account.',
  left: 'You left the organization: you no longer have access to it and your keys for it stopped working.',
  deleted: 'The organization was deleted for good: its data is gone and its keys stopped working.',
};

function AccountNotice({ notice }: { notice: string | null }) {
  const text = notice === null ? undefined : accountNotices[notice];
  if (text === undefined) return null;
  return (
    <p className="signed-out-notice" role="status">
      {text}
    </p>
  );
}
