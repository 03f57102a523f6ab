import { QueryClient } from '@tanstack/react-query';
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

export const queryClient = new QueryClient({
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
