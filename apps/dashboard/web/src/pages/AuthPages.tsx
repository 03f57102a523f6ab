import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState, type FormEvent } from 'react';
import { ErrorText, Field, PageTitle } from '../components/ui.tsx';
import { Link, match, navigate, useLocation } from '../router.tsx';
import { useTRPC } from '../trpc.ts';

function useAfterSignIn(next: string) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries();
    navigate(next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
  };
}

/** The one sentence the sign-in and sign-up pages say about MMW. */
export const TAGLINE = 'MMW is long-term memory for your AI assistants: Claude, Cursor, Codex and ChatGPT remember facts over MCP and find them again later.';

/**
 * Coming from an invitation link (?next=/invite/…): the invitation it names, whose email fills the
 * form; the link stays in ?next= so that the person lands on it once signed in.
 */
function useInvitationEmail(next: string, setEmail: (email: string) => void) {
  const trpc = useTRPC();
  const token = match('/invite/:token', next)?.token ?? '';
  const preview = useQuery({ ...trpc.invitations.preview.queryOptions({ token }), enabled: token !== '', retry: false });
  const invited = preview.data?.email;
  useEffect(() => {
    if (invited !== undefined) setEmail(invited);
  }, [invited, setEmail]);
  return preview.data;
}

function InvitationNote({ invitation }: { invitation: { accountName: string; email: string } | undefined }) {
  if (invitation === undefined) return null;
  return (
    <p className="callout" data-testid="invitation-note">
      You are invited to join <strong>{invitation.accountName}</strong> as {invitation.email}. Continue to accept the invitation.
    </p>
  );
}

export function SignInPage({ next }: { next: string }) {
  const trpc = useTRPC();
  const done = useAfterSignIn(next);
  const [email, setEmail] = useState('');
  const invitation = useInvitationEmail(next, setEmail);
  const signedOut = useLocation().search.get('signedOut');
  const [password, setPassword] = useState('');
  const signIn = useMutation(trpc.auth.signIn.mutationOptions({ onSuccess: done }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signIn.mutate({ email, password });
  };
  return (
    <main id="main" className="auth-card">
      <form className="panel stack" onSubmit={submit} aria-describedby="signin-error">
        <PageTitle>Sign in to MMW</PageTitle>
        <p className="muted">{TAGLINE}</p>
        <InvitationNote invitation={invitation} />
        {signedOut !== null && /^\d{1,6}$/.test(signedOut) ? (
          <p className="notice" role="status">
            You are signed out everywhere: {signedOut} session(s) ended.
          </p>
        ) : null}
        <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        <p>
          <Link to={`/forgot-password${email ? `?email=${encodeURIComponent(email)}` : ''}`}>Forgot password?</Link>
        </p>
        <div id="signin-error">
          <ErrorText error={signIn.error} />
        </div>
        <button className="primary" type="submit" disabled={signIn.isPending}>
          {signIn.isPending ? 'Signing in…' : 'Sign in'}
        </button>
        <p className="muted">
          New here? <Link to={`/signup?next=${encodeURIComponent(next)}`}>Create an account</Link>
        </p>
      </form>
    </main>
  );
}

export function SignUpPage({ next }: { next: string }) {
  const trpc = useTRPC();
  const done = useAfterSignIn(next);
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const invitation = useInvitationEmail(next, setEmail);
  const [password, setPassword] = useState('');
  const signUp = useMutation(trpc.auth.signUp.mutationOptions({ onSuccess: done }));
  const submit = (event: FormEvent) => {
    event.preventDefault();
    signUp.mutate({ email, password, name });
  };
  return (
    <main id="main" className="auth-card">
      <form className="panel stack" onSubmit={submit}>
        <PageTitle>Create your MMW account</PageTitle>
        <p className="muted">{TAGLINE}</p>
        <InvitationNote invitation={invitation} />
        <Field label="Name" autoComplete="name" value={name} onChange={(e) => setName(e.target.value)} />
        <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field
          label="Password"
          type="password"
          autoComplete="new-password"
          required
          minLength={8}
          hint="At least 8 characters."
          value={password}
          onChange={(e) => setPassword(e.target.value)}
        />
        <ErrorText error={signUp.error} />
        <button className="primary" type="submit" disabled={signUp.isPending}>
          {signUp.isPending ? 'Creating…' : 'Create account'}
        </button>
        <p className="muted">
          Have an account? <Link to={`/signin?next=${encodeURIComponent(next)}`}>Sign in</Link>
        </p>
      </form>
    </main>
  );
}
