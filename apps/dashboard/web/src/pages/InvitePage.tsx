import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorText, Loading, PageTitle, RoleBadge } from '../components/ui.tsx';
import { Link, navigate } from '../router.tsx';
import { useTRPC } from '../trpc.ts';

/** Signed in as someone else than the invited address: say so before anything is accepted. */
function WrongAccount({ token, signedInAs, invited }: { token: string; signedInAs: string; invited: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const next = `/invite/${token}`;
  const signOut = useMutation(
    trpc.auth.signOut.mutationOptions({
      onSettled: async () => {
        queryClient.clear();
        navigate(`/signin?next=${encodeURIComponent(next)}`, { replace: true });
        await queryClient.invalidateQueries();
      },
    }),
  );
  return (
    <div className="stack" data-testid="wrong-account">
      <p role="alert">
        You are signed in as <strong>{signedInAs}</strong>, but this invitation is for <strong>{invited}</strong>. Only that address can accept it.
      </p>
      <div className="row">
        <button type="button" className="primary" onClick={() => signOut.mutate({})} disabled={signOut.isPending}>
          Sign out and continue as {invited}
        </button>
        <Link to="/">Stay as {signedInAs}</Link>
      </div>
    </div>
  );
}

export function InvitePage({ token }: { token: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const me = useQuery(trpc.auth.me.queryOptions());
  const preview = useQuery(trpc.invitations.preview.queryOptions({ token }));
  const accept = useMutation(
    trpc.invitations.accept.mutationOptions({
      onSuccess: async ({ accountId }) => {
        await queryClient.invalidateQueries();
        navigate(`/a/${accountId}/projects`);
      },
    }),
  );
  const resend = useMutation(trpc.auth.resendVerification.mutationOptions());
  const signedInAs = me.data?.email;
  const wrongAccount = preview.data !== undefined && signedInAs !== undefined && signedInAs.toLowerCase() !== preview.data.email.toLowerCase();
  return (
    <section className="panel stack" style={{ maxWidth: '32rem' }}>
      <PageTitle>Invitation</PageTitle>
      {preview.isPending ? <Loading what="invitation" /> : null}
      <ErrorText error={preview.error} />
      {preview.data ? (
        <>
          <p>
            You are invited to join <strong>{preview.data.accountName}</strong> as <RoleBadge role={preview.data.role} />
            <br />
            <span className="muted">for {preview.data.email}</span>
          </p>
          {wrongAccount && signedInAs !== undefined ? (
            <WrongAccount token={token} signedInAs={signedInAs} invited={preview.data.email} />
          ) : (
            <>
              <ErrorText error={accept.error} />
              {accept.error ? (
                <button type="button" onClick={() => resend.mutate({})} disabled={resend.isPending || resend.isSuccess}>
                  {resend.isSuccess ? 'Verification mail sent' : 'Send the verification mail again'}
                </button>
              ) : null}
              <button className="primary" type="button" onClick={() => accept.mutate({ token })} disabled={accept.isPending}>
                Accept invitation
              </button>
            </>
          )}
        </>
      ) : null}
    </section>
  );
}
