import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ErrorText, Field, PageTitle } from '../components/ui.tsx';
import { navigate } from '../router.tsx';
import { useTRPC } from '../trpc.ts';

/** The second step of signing in: the password was right, the code comes next. */
export function SecondFactorPage({ next }: { next: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const verify = useMutation(
    trpc.auth.verifySecondFactor.mutationOptions({
      onSuccess: async () => {
        await queryClient.invalidateQueries();
        navigate(next.startsWith('/') && !next.startsWith('//') ? next : '/', { replace: true });
      },
    }),
  );
  const cancel = useMutation(
    trpc.auth.signOut.mutationOptions({
      onSettled: async () => {
        queryClient.clear();
        navigate('/signin', { replace: true });
        await queryClient.invalidateQueries();
      },
    }),
  );
  const submit = (event: FormEvent) => {
    event.preventDefault();
    verify.mutate({ code });
  };
  return (
    <main id="main" className="auth-card">
      <form className="panel stack" onSubmit={submit}>
        <PageTitle>Enter your code</PageTitle>
        <p className="muted">Type the code your authenticator app shows, or one of your recovery codes.</p>
        <Field label="Code" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.target.value)} />
        <ErrorText error={verify.error} />
        <button className="primary" type="submit" disabled={verify.isPending}>
          Verify
        </button>
        <button type="button" className="link" onClick={() => cancel.mutate({})}>
          Use another account
        </button>
      </form>
    </main>
  );
}
