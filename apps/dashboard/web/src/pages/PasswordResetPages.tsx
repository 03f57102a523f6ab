import { useMutation } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorText, Field, PageTitle } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { useTRPC } from '../trpc.ts';

/** "Forgot password?": asks for the address; the answer is the same whether or not it has an account. */
export function ForgotPasswordPage({ email: given }: { email: string }) {
  const trpc = useTRPC();
  const [email, setEmail] = useState(given);
  const request = useMutation(trpc.auth.requestPasswordReset.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    request.mutate({ email });
  };
  return (
    <main id="main" className="auth-card">
      <form className="panel stack" onSubmit={submit}>
        <PageTitle>Reset your password</PageTitle>
        {request.isSuccess ? (
          <p className="notice" role="status">
            If an account uses {email}, a link to choose a new password is on its way. It works once, for 30 minutes.
          </p>
        ) : (
          <>
            <p className="muted">Enter the email you sign in with. We mail you a link to choose a new password.</p>
            <Field label="Email" type="email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
            <ErrorText error={request.error} />
            <button className="primary" type="submit" disabled={request.isPending}>
              {request.isPending ? 'Sending…' : 'Send the reset link'}
            </button>
          </>
        )}
        <p className="muted">
          <Link to="/signin">Back to sign in</Link>
        </p>
      </form>
    </main>
  );
}

/** The reset link's page: a new password; every session of the account ends, then the person signs in. */
export function ResetPasswordPage({ token }: { token: string }) {
  const trpc = useTRPC();
  const [password, setPassword] = useState('');
  const reset = useMutation(trpc.auth.resetPassword.mutationOptions());
  const submit = (event: FormEvent) => {
    event.preventDefault();
    reset.mutate({ token, newPassword: password });
  };
  return (
    <main id="main" className="auth-card">
      <form className="panel stack" onSubmit={submit}>
        <PageTitle>Choose a new password</PageTitle>
        {reset.data ? (
          <>
            <p className="notice" role="status">
              Your password is changed and every session of {reset.data.email} has ended. Sign in with the new password.
            </p>
            <Link to={`/signin`}>Sign in</Link>
          </>
        ) : (
          <>
            <Field
              label="New password"
              type="password"
              autoComplete="new-password"
              required
              minLength={8}
              hint="At least 8 characters, not your current password."
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <ErrorText error={reset.error} />
            <button className="primary" type="submit" disabled={reset.isPending}>
              {reset.isPending ? 'Saving…' : 'Set the new password'}
            </button>
            <p className="muted">
              Link expired? <Link to="/forgot-password">Ask for a new one</Link>
            </p>
          </>
        )}
      </form>
    </main>
  );
}
