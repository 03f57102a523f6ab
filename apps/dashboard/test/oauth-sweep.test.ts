import { oauthSweepJob, runnable } from '@mmw/core';
import { describe, expect, it } from 'vitest';
import { organizationWith, useDashboard, type Organization } from './fixtures.ts';
import { pkce, postForm } from './oauth-support.ts';

const f = useDashboard();
const REDIRECT = 'https://connector.example.com/callback';
const HOUR_MS = 60 * 60 * 1000;

async function register(): Promise<string> {
  const response = await fetch(`${f.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ client_name: 'Sweep client', redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' }),
  });
  expect(response.status).toBe(201);
  return ((await response.json()) as { client_id: string }).client_id;
}

/** The person consents (as the consent page does); the code the client receives and its verifier. */
async function consent(org: Organization, clientId: string): Promise<{ code: string; verifier: string }> {
  const { verifier, challenge } = pkce();
  const params = {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: 'st',
    resource: f.mcp.url,
  };
  const { redirectTo } = await org.owner.client.oauth.approve.mutate({ accountId: org.accountId, projectId: org.projectId, params });
  return { code: new URL(redirectTo).searchParams.get('code') ?? '', verifier };
}

const rows = async (table: 'oauth_codes' | 'oauth_tokens', accountId: string, kind?: string) => {
  const found = await f.db.query<{ n: number }>(
    `select count(*)::int as n from ${table} where account_id = $1${kind === undefined ? '' : ' and kind = $2'}`,
    kind === undefined ? [accountId] : [accountId, kind],
  );
  return found[0]?.n ?? -1;
};

describe('the hourly sweep of expired OAuth codes and tokens', () => {
  it('deletes what can no longer be used, keeps what can, and schedules the next hour', { timeout: 60_000 }, async () => {
    const org = await organizationWith(f, 'oauth-sweep');
    const clientId = await register();
    const used = await consent(org, clientId);
    const tokens = await postForm(`${f.url}/oauth/token`, {
      grant_type: 'authorization_code',
      code: used.code,
      code_verifier: used.verifier,
      client_id: clientId,
      redirect_uri: REDIRECT,
      resource: f.mcp.url,
    });
    expect(tokens.status).toBe(200);
    await consent(org, clientId); // a code nobody exchanged
    expect(await rows('oauth_codes', org.accountId)).toBe(2);
    expect(await rows('oauth_tokens', org.accountId)).toBe(2);

    // Time passes (the rows' clocks are moved back): the access token and the unexchanged code are
    // long expired; the used code expired an hour ago (kept a day, so a replay still revokes).
    await f.db.query("update oauth_tokens set expires_at = now() - interval '1 minute' where account_id = $1 and kind = 'access'", [org.accountId]);
    await f.db.query("update oauth_codes set expires_at = now() - interval '2 days' where account_id = $1 and used_at is null", [org.accountId]);
    await f.db.query("update oauth_codes set expires_at = now() - interval '1 hour' where account_id = $1 and used_at is not null", [org.accountId]);

    // The sweep as the worker runs it: this hour's run, due now, through pg-boss.
    const sweep = oauthSweepJob({ db: f.db.database.db, jobs: f.mcp.runtime.jobs });
    await sweep.schedule(new Date(Date.now() - HOUR_MS));
    await f.mcp.runtime.jobs.work([runnable(sweep.job)], { concurrency: 1, batchSize: 1 });
    await expect.poll(() => rows('oauth_tokens', org.accountId, 'access'), { timeout: 30_000, interval: 200 }).toBe(0);

    expect(await rows('oauth_tokens', org.accountId, 'refresh')).toBe(1);
    const [code] = await f.db.query<{ used: boolean }>('select used_at is not null as used from oauth_codes where account_id = $1', [org.accountId]);
    expect(await rows('oauth_codes', org.accountId)).toBe(1);
    expect(code?.used).toBe(true);
    // The grant lives on: its refresh token still gives a new access token.
    const refreshed = await postForm(`${f.url}/oauth/token`, {
      grant_type: 'refresh_token',
      refresh_token: String(tokens.body.refresh_token),
      client_id: clientId,
    });
    expect(refreshed.status).toBe(200);
    expect(await rows('oauth_tokens', org.accountId, 'access')).toBe(1);

    const next = new Date((Math.floor(Date.now() / HOUR_MS) + 1) * HOUR_MS);
    await expect
      .poll(
        async () =>
          (await f.db.query<{ at: Date }>("select start_after as at from pgboss.job where name = 'oauth-sweep' and state = 'created'")).map(
            (job) => job.at.toISOString(),
          ),
        { timeout: 10_000, interval: 200 },
      )
      .toEqual([next.toISOString()]);
  });
});
