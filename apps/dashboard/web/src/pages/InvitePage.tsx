import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ErrorText, Loading, PageTitle, RoleBadge } from '../components/ui.tsx';
import { navigate } from '../router.tsx';
import { useTRPC } from '../trpc.ts';

export function InvitePage({ token }: { token: string }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
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
      ) : null}
    </section>
  );
}
