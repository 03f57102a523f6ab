import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useAccountTitle } from './account-title.ts';
import { lastAccount, rememberAccount } from './last-visited.ts';
import { ForgotPasswordPage, ResetPasswordPage } from './pages/PasswordResetPages.tsx';
import { Shell } from './components/Shell.tsx';
import { Loading } from './components/ui.tsx';
import { Link, match, Redirect, useLocation } from './router.tsx';
import { AccountSettingsPage } from './pages/AccountSettingsPage.tsx';
import { AuditPage } from './pages/AuditPage.tsx';
import { BillingPage } from './pages/BillingPage.tsx';
import { ConsentPage } from './pages/ConsentPage.tsx';
import { ExportImportPage } from './pages/ExportImportPage.tsx';
import { HandoverPage } from './pages/HandoverPage.tsx';
import { InvitePage } from './pages/InvitePage.tsx';
import { VerifyEmailPage } from './pages/VerifyEmailPage.tsx';
import { KeysPage } from './pages/KeysPage.tsx';
import { MembersPage } from './pages/MembersPage.tsx';
import { ProjectsPage } from './pages/ProjectsPage.tsx';
import { RecordPage } from './pages/RecordPage.tsx';
import { RecordsPage } from './pages/RecordsPage.tsx';
import { SecondFactorPage } from './pages/SecondFactorPage.tsx';
import { SessionsPage } from './pages/SessionsPage.tsx';
import { SettingsPage } from './pages/SettingsPage.tsx';
import { SignInPage, SignUpPage } from './pages/AuthPages.tsx';
import { VisibilityPage } from './pages/VisibilityPage.tsx';
import { WorkspacesPage } from './pages/WorkspacesPage.tsx';
import { useTRPC } from './trpc.ts';

const accountPages = {
  projects: ProjectsPage,
  keys: KeysPage,
  workspaces: WorkspacesPage,
  records: RecordsPage,
  sessions: SessionsPage,
  members: MembersPage,
  visibility: VisibilityPage,
  handover: HandoverPage,
  audit: AuditPage,
  billing: BillingPage,
  account: AccountSettingsPage,
  portability: ExportImportPage,
} as const;

function isAccountPage(page: string): page is keyof typeof accountPages {
  return page in accountPages;
}

/** Someone removed from an organization (or following an old link) lands on their own account. */
function LeftAccount({ accounts }: { accounts: Array<{ id: string; kind: string }> }) {
  const own = accounts.find((account) => account.kind === 'personal') ?? accounts[0];
  if (own === undefined) return <p role="alert">This account was not found, or you are not a member of it.</p>;
  return <Redirect to={`/a/${own.id}/projects?notice=not-a-member`} />;
}

export function App() {
  const trpc = useTRPC();
  const me = useQuery(trpc.auth.me.queryOptions());
  const accounts = useQuery({ ...trpc.accounts.list.queryOptions(), enabled: me.data != null && !me.data.secondFactorPending });
  const { path, search } = useLocation();

  const oneRecord = match('/a/:accountId/records/:recordId', path);
  const inAccount = oneRecord ?? match('/a/:accountId/:page', path);
  const openAccount = accounts.data?.find((candidate) => candidate.id === inAccount?.accountId);
  useAccountTitle(openAccount?.name);
  useEffect(() => {
    if (openAccount !== undefined) rememberAccount(openAccount.id);
  }, [openAccount]);

  const verifying = match('/verify-email/:token', path);
  if (verifying?.token !== undefined) return <VerifyEmailPage token={verifying.token} />;
  // A reset link works whoever is signed in here: the token is the proof.
  const resetting = match('/reset-password/:token', path);
  if (resetting?.token !== undefined) return <ResetPasswordPage token={resetting.token} />;
  if (me.isPending) return <Loading what="MMW" />;
  const signedIn = me.data ?? null;
  const next = search.get('next') ?? '/';
  if (signedIn?.secondFactorPending === true) return <SecondFactorPage next={path === '/signin' ? next : path} />;
  if (path === '/signin') {
    if (signedIn) return <Redirect to={next} />;
    return (
      <>
        {search.get('ended') === '1' ? (
          <p className="signed-out-notice auth-card" role="status">
            Your session ended. Sign in again to continue where you were.
          </p>
        ) : null}
        <SignInPage next={next} />
      </>
    );
  }
  if (path === '/signup') return signedIn ? <Redirect to={next} /> : <SignUpPage next={next} />;
  if (path === '/forgot-password') return signedIn ? <Redirect to="/settings" /> : <ForgotPasswordPage email={search.get('email') ?? ''} />;
  if (!signedIn) return <Redirect to={`/signin?next=${encodeURIComponent(path + (search.size > 0 ? `?${search}` : ''))}`} />;

  if (path === '/oauth/authorize') return <ConsentPage search={search} />;
  const invite = match('/invite/:token', path);
  if (invite?.token !== undefined) {
    return (
      <Shell user={signedIn} accountId={undefined}>
        <InvitePage token={invite.token} />
      </Shell>
    );
  }
  if (path === '/settings') {
    return (
      <Shell user={signedIn} accountId={undefined}>
        <SettingsPage />
      </Shell>
    );
  }
  const pageName = oneRecord ? 'records' : inAccount?.page;
  if (inAccount?.accountId !== undefined && pageName !== undefined && isAccountPage(pageName)) {
    const account = openAccount;
    const recordId = oneRecord?.recordId;
    const Page = accountPages[pageName];
    return (
      <Shell user={signedIn} accountId={inAccount.accountId}>
        {accounts.isPending ? (
          <Loading what="account" />
        ) : account === undefined ? (
          <LeftAccount accounts={accounts.data ?? []} />
        ) : account.requireTwoFactor && !signedIn.twoFactorEnabled ? (
          <p role="alert">
            {account.name} requires two-factor sign-in. <Link to="/settings">Set it up under Settings</Link> to continue.
          </p>
        ) : (
          recordId === undefined ? (
            <Page accountId={account.id} role={account.role} kind={account.kind} />
          ) : (
            <RecordPage key={recordId} accountId={account.id} role={account.role} kind={account.kind} recordId={recordId} />
          )
        )}
      </Shell>
    );
  }
  if (accounts.isPending) return <Loading what="accounts" />;
  const remembered = accounts.data?.find((account) => account.id === lastAccount());
  const first = remembered ?? accounts.data?.find((account) => account.kind === 'organization') ?? accounts.data?.[0];
  // A notice of what just happened (leaving, deleting an organization) goes along to where the person lands.
  const notice = search.get('notice');
  const carried = notice === 'left' || notice === 'deleted' ? `?notice=${notice}` : '';
  return first ? <Redirect to={`/a/${first.id}/projects${carried}`} /> : <Redirect to={`/settings${carried}`} />;
}
