import { describe, expect, it } from 'vitest';
import { setSubscriptionByOperator } from '@mmw/core';
import { connectMcp } from '@mmw/test-support';
import { useMcp } from './fixtures.ts';

const f = useMcp('gate-co', 'main');
const DAY = 24 * 60 * 60 * 1000;

async function setStatus(status: string, periodEnd?: Date) {
  await setSubscriptionByOperator(f.db.database.db, { account: 'gate-co', status, periodEnd: periodEnd ?? null });
}

describe('subscription and grace', () => {
  it('serves everything while active', async () => {
    await setStatus('active');
    expect((await f.client.call('remember', { content: 'active write' })).isError).toBe(false);
  });

  it('makes memory unavailable without a subscription', async () => {
    await setStatus('none');
    for (const [tool, args] of [
      ['remember', { content: 'x' }],
      ['search', { query: 'x' }],
      ['validate_memory', { source_id: 'a', current_source_hash: 'b' }],
      ['forget', { id: crypto.randomUUID() }],
    ] as const) {
      const outcome = await f.client.call(tool, args);
      expect(outcome.isError).toBe(true);
      expect(outcome.text).toMatch(/^\[MMW Notice\]: .*subscri/);
    }
    await setStatus('active');
  });

  it('is read-only during the grace period after the subscription ends, then unavailable', async () => {
    await setStatus('active');
    const kept = await f.client.ok<{ id: string }>('remember', { content: 'written before the end' });
    await setStatus('canceled', new Date(Date.now() - DAY));
    const search = await f.client.call('search', { query: 'written end' });
    expect(search.isError).toBe(false);
    expect(search.structured?.notice).toMatch(/^\[MMW Notice\]: .*read-only/);
    expect((await f.client.call('validate_memory', { source_id: 'a', current_source_hash: 'b' })).isError).toBe(false);
    const write = await f.client.call('remember', { content: 'after the end' });
    expect(write.text).toMatch(/^\[MMW Notice\]: .*read-only/);
    const forget = await f.client.call('forget', { id: kept.id });
    expect(forget.text).toMatch(/^\[MMW Notice\]: /);

    await setStatus('unpaid', new Date(Date.now() - 30 * DAY));
    const late = await f.client.call('search', { query: 'written' });
    expect(late.text).toMatch(/^\[MMW Notice\]: .*grace period is over/);
    await setStatus('active');
    const again = await f.client.ok<{ result: Array<{ id: string }> }>('search', { query: 'written end' });
    expect(again.result.map((r) => r.id)).toContain(kept.id);
  });

  it('treats an active subscription past its period end as ended', async () => {
    await setStatus('active', new Date(Date.now() - DAY));
    expect((await f.client.call('remember', { content: 'x' })).text).toMatch(/^\[MMW Notice\]: /);
    expect((await f.client.call('search', { query: 'x' })).isError).toBe(false);
    await setStatus('active');
  });

  it('keeps full access while past_due and adds a notice to results', async () => {
    await setStatus('past_due', new Date(Date.now() + DAY));
    const write = await f.client.call('remember', { content: 'payment is late' });
    expect(write.isError).toBe(false);
    expect(write.structured?.notice).toMatch(/^\[MMW Notice\]: .*payment/);
    const read = await f.client.call('search', { query: 'payment' });
    expect(read.structured?.notice).toMatch(/^\[MMW Notice\]: /);
    await setStatus('active');
  });

  it('counts the grace period from MMW_GRACE_DAYS', async () => {
    const { startMcp } = await import('./start-mcp.ts');
    const strict = await startMcp(f.db.database, { env: { MMW_GRACE_DAYS: '0' } });
    const client = await connectMcp(strict.url, f.key);
    await setStatus('canceled', new Date(Date.now() - 60_000));
    expect((await client.call('search', { query: 'x' })).text).toMatch(/^\[MMW Notice\]: .*grace period is over/);
    await setStatus('active');
    await client.close();
    await strict.close();
  });
});
