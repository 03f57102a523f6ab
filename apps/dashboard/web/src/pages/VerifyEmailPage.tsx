import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { ErrorText, Loading, PageTitle } from '../components/ui.tsx';
import { Link } from '../router.tsx';
import { useTRPC } from '../trpc.ts';

/** The page a verification mail's link opens: the token proves the address, signed in or not. */
export function VerifyEmailPage({ token }: { token: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const verify = useMutation(trpc.auth.verifyEmail.mutationOptions({ onSuccess: () => queryClient.invalidateQueries() }));
  const { mutate } = verify;
  // Once per token: a link works one time, and React may run an effect twice.
  const sent = useRef('');
  useEffect(() => {
    if (sent.current === token) return;
    sent.current = token;
    mutate({ token });
  }, [mutate, token]);
  return (
    <section className="panel stack" style={{ maxWidth: '32rem', margin: '2rem auto' }}>
      <PageTitle>Email verification</PageTitle>
      {verify.isPending ? <Loading what="verification" /> : null}
      <ErrorText error={verify.error} />
      {verify.data ? (
        <p>
          {verify.data.email} is verified. <Link to="/">Continue to MMW</Link>
        </p>
      ) : null}
    </section>
  );
}
