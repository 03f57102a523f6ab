import { describe, expect, it } from 'vitest';
import { useDashboard } from './fixtures.ts';

// Three registrations per address here, so that the fourth can be seen refused.
const f = useDashboard({ env: { MMW_OAUTH_REGISTRATIONS_PER_ADDRESS: '3' } });

function register(metadata: Record<string, unknown>): Promise<Response> {
  return fetch(`${f.url}/oauth/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(metadata),
  });
}

const client = (name: string) => ({
  client_name: name,
  redirect_uris: ['https://connector.example.com/callback'],
  token_endpoint_auth_method: 'none',
});

async function registeredClients(): Promise<number> {
  const [row] = await f.db.query<{ n: number }>("select count(*)::int as n from oauth_clients where kind = 'registered'");
  return row?.n ?? -1;
}

describe('dynamic client registration, throttled per address', () => {
  it('registers up to the limit, then answers 429 with Retry-After and registers nothing', async () => {
    // Bad metadata is refused before it is counted.
    const bad = await register({ client_name: 'no redirect' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: string }).error).toBe('invalid_client_metadata');

    for (const name of ['one', 'two', 'three']) expect((await register(client(name))).status).toBe(201);
    expect(await registeredClients()).toBe(3);

    const refused = await register(client('four'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    expect(await refused.json()).toEqual({
      error: 'temporarily_unavailable',
      error_description: 'too many client registrations from this address; try again later',
    });
    expect(await registeredClients()).toBe(3);

    // Still refused while the wait lasts.
    const again = await register(client('five'));
    expect(again.status).toBe(429);
    expect(await registeredClients()).toBe(3);
  });
});
