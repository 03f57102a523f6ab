import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorText, Field, PageTitle } from '../components/ui.tsx';
import { Link, navigate } from '../router.tsx';
import { useTRPC } from '../trpc.ts';

function useAfterSignIn(next: string) {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.invalidateQueries();
    navigate(next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
  };
}

export function SignInPage({ next }: { next: string }) {
  const trpc = useTRPC();
  const done = useAfterSignIn(next);
  const [email, setEmail] = useState('');
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
        <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
        <Field label="Password" type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
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
