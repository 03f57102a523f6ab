import { MutationCache, QueryCache, QueryClient } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, httpLink, splitLink, TRPCClientError } from '@trpc/client';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '../../src/router.ts';

export const { TRPCProvider, useTRPC } = createTRPCContext<AppRouter>();

// Every request carries the header the server's CSRF check asks for; the cookie rides along.
const headers = { 'x-mmw-csrf': '1' };

export const trpcClient = createTRPCClient<AppRouter>({
  links: [
    splitLink({
      condition: (op) => op.type === 'query',
      true: httpBatchLink({ url: '/trpc', headers }),
      false: httpLink({ url: '/trpc', headers }),
    }),
  ],
});

/**
 * A session that ended (expired, signed out elsewhere) sends the reader to sign in with a word on
 * why, and back here afterwards. A "not found" may mean the reader was just removed from the
 * organization: the account list is read again, and the app moves them to their own account.
 */
function onFailure(error: unknown): void {
  if (!(error instanceof TRPCClientError)) return;
  const code = (error.data as { code?: string } | undefined)?.code;
  if (code === 'UNAUTHORIZED' && error.message === 'sign in first' && window.location.pathname !== '/signin') {
    const here = window.location.pathname + window.location.search;
    queryClient.clear();
    window.history.replaceState(null, '', `/signin?ended=1&next=${encodeURIComponent(here)}`);
    window.dispatchEvent(new PopStateEvent('popstate'));
  }
  if (code === 'NOT_FOUND' || code === 'FORBIDDEN') void queryClient.invalidateQueries({ queryKey: [['accounts', 'list']] });
}

export const queryClient = new QueryClient({
  queryCache: new QueryCache({ onError: onFailure }),
  mutationCache: new MutationCache({ onError: onFailure }),
  defaultOptions: {
    queries: {
      retry: (count, error) => count < 2 && !(error instanceof TRPCClientError),
      refetchOnWindowFocus: false,
    },
  },
});

export function errorText(error: unknown): string {
  if (error instanceof TRPCClientError) return error.message;
  return 'Something went wrong. Try again.';
}

export function isUnauthorized(error: unknown): boolean {
  return error instanceof TRPCClientError && (error.data as { code?: string } | undefined)?.code === 'UNAUTHORIZED';
}

/** Per field, what the server said was wrong with it (an input check names the field and its limit). */
export function fieldErrors(error: unknown): Record<string, string> {
  if (!(error instanceof TRPCClientError)) return {};
  const fields = (error.data as { fields?: unknown } | undefined)?.fields;
  if (typeof fields !== 'object' || fields === null) return {};
  return Object.fromEntries(Object.entries(fields).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}
