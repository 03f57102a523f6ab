import type { Config } from '../config.ts';
import type { ClientDocumentPolicy } from './fetch-client-document.ts';

/** The authorization server's settings, from config: its audience, token lives and fetch policy. */
export interface OAuthSettings {
  /** The MCP endpoint: the one resource tokens are issued for (RFC 8707 audience). */
  resource: string;
  accessTokenSeconds: number;
  refreshTokenSeconds: number;
  codeSeconds: number;
  clientDocuments: ClientDocumentPolicy;
  /** Dynamic client registrations each address may make in the sign-up throttle's window. */
  registrationsPerAddress: number;
}

export function oauthSettings(config: Config, resource: string): OAuthSettings {
  return {
    resource: canonicalResource(resource),
    accessTokenSeconds: config.MMW_OAUTH_ACCESS_TOKEN_SECONDS,
    refreshTokenSeconds: config.MMW_OAUTH_REFRESH_TOKEN_DAYS * 24 * 60 * 60,
    codeSeconds: 60,
    registrationsPerAddress: config.MMW_OAUTH_REGISTRATIONS_PER_ADDRESS,
    clientDocuments: {
      allowLoopback: config.MMW_OAUTH_DEV_LOOPBACK_CLIENTS,
      maxBytes: 5 * 1024,
      timeoutMs: config.MMW_OAUTH_CLIENT_DOCUMENT_TIMEOUT_MS,
    },
  };
}

/** A resource URL as compared: parsed and printed again (lower-case scheme and host, no fragment). */
export function canonicalResource(resource: string): string {
  const url = new URL(resource);
  url.hash = '';
  return url.href;
}

/** True when a presented resource names the same endpoint, written in the URL's canonical form. */
export function sameResource(presented: string, resource: string): boolean {
  return URL.canParse(presented) && canonicalResource(presented) === canonicalResource(resource);
}
