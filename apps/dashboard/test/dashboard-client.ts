import { createTRPCClient, httpBatchLink, httpLink, splitLink, type TRPCClient } from '@trpc/client';
import { CSRF_HEADER, type AppRouter } from '../src/index.ts';

export type DashboardClient = TRPCClient<AppRouter>;

/** A cookie jar of one: the session cookie, as a browser keeps it. */
export interface CookieJar {
  cookie: string | undefined;
  /** The last Set-Cookie header seen for the session, raw. */
  lastSetCookie: string | undefined;
}

export interface ClientOptions {
  /** Origin header sent with every request; the dashboard's own by default. */
  origin?: string | null;
  csrfHeader?: boolean;
  batch?: boolean;
  jar?: CookieJar;
  /** Extra headers on every request (X-Forwarded-For behind a trusted proxy). */
  headers?: Record<string, string>;
}

/** A real tRPC client over HTTP with a cookie jar, as the web UI talks to the API. */
export function dashboardClient(baseUrl: string, options: ClientOptions = {}): { client: DashboardClient; jar: CookieJar } {
  const jar: CookieJar = options.jar ?? { cookie: undefined, lastSetCookie: undefined };
  const origin = options.origin === undefined ? new URL(baseUrl).origin : options.origin;
  const cookieFetch = async (url: Parameters<typeof fetch>[0], init?: RequestInit): Promise<Response> => {
    const headers = new Headers(init?.headers);
    for (const [name, value] of Object.entries(options.headers ?? {})) headers.set(name, value);
    if (jar.cookie !== undefined) headers.set('cookie', jar.cookie);
    if (origin !== null) headers.set('origin', origin);
    if (options.csrfHeader !== false) headers.set(CSRF_HEADER, '1');
    const response = await fetch(url, { ...init, headers });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      if (pair?.startsWith('mmw_session=') !== true) continue;
      jar.lastSetCookie = line;
      const value = pair.slice('mmw_session='.length);
      jar.cookie = value === '' || /max-age=0|expires=thu, 01 jan 1970/i.test(line) ? undefined : pair;
    }
    return response;
  };
  const url = `${baseUrl}/trpc`;
  const client = createTRPCClient<AppRouter>({
    links: [
      options.batch === false
        ? httpLink({ url, fetch: cookieFetch })
        : splitLink({
            condition: (op) => op.type === 'query',
            true: httpBatchLink({ url, fetch: cookieFetch }),
            false: httpLink({ url, fetch: cookieFetch }),
          }),
    ],
  });
  return { client, jar };
}
