import type { CreateFastifyContextOptions } from '@trpc/server/adapters/fastify';
import {
  validateSessionToken,
  type Billing,
  type InputGuard,
  type OAuthSettings,
  type QueryExpander,
  type SecretBox,
  type ValidSession,
} from '@mmw/core';
import type { Db } from '@mmw/db';
import type { FastifyBaseLogger } from 'fastify';
import type { MailTransport } from '../mail-transport.ts';
import { clearSessionCookie, readSessionToken, setSessionCookie, type CookieSettings } from './session-cookie.ts';

/** Where invitation links go: a mail to the invitee by default. */
export interface InvitationNotifier {
  invitationCreated(message: { email: string; accountName: string; link: string }): Promise<void> | void;
}

export interface DashboardDeps {
  db: Db;
  cookies: CookieSettings;
  /** The origin the web UI is served from, e.g. https://mmw.example.com; from the request when undefined. */
  publicOrigin: string | undefined;
  /** The MCP endpoint the "claude mcp add" line names. */
  mcpUrl: string;
  notifier: InvitationNotifier;
  mail: MailTransport;
  /** Sign-ups per client address per window; core's default when undefined. */
  signUpsPerAddress: number | undefined;
  /** The query expander of MCP search, so that the dashboard's search is the same. */
  expander: QueryExpander | undefined;
  /** Plans, Checkout and the customer portal; the Billing pages say so when it is not given. */
  billing: Billing | undefined;
  /** The OAuth authorization server's settings: the MCP endpoint as audience, token lives, fetch policy. */
  oauth: OAuthSettings;
  /** The Memory Guard as remember uses it: every imported record passes it. */
  guardInput: InputGuard;
  /** Seals and opens two-factor secrets (MMW_SECRET_KEY). */
  secrets: SecretBox;
}

export interface Context {
  deps: DashboardDeps;
  req: CreateFastifyContextOptions['req'];
  res: CreateFastifyContextOptions['res'];
  log: FastifyBaseLogger;
  session: ValidSession | undefined;
  /** The origin this request's page must come from (CSRF check) and links are built on. */
  origin: string;
}

export function requestOrigin(deps: DashboardDeps, req: CreateFastifyContextOptions['req']): string {
  if (deps.publicOrigin !== undefined) return deps.publicOrigin;
  return `${req.protocol}://${req.host}`;
}

/** The session is resolved once per request, from the cookie; a renewed one is sent again. */
export function contextFactory(deps: DashboardDeps) {
  return async ({ req, res }: CreateFastifyContextOptions): Promise<Context> => {
    const token = readSessionToken(req);
    const session = token === undefined ? undefined : await validateSessionToken(deps.db, token);
    if (token !== undefined && session === undefined) clearSessionCookie(res, deps.cookies);
    if (token !== undefined && session?.renewed === true) setSessionCookie(res, deps.cookies, token, session.expiresAt);
    return { deps, req, res, log: req.log, session, origin: requestOrigin(deps, req) };
  };
}
