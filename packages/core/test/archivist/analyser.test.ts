import { describe, expect, it } from 'vitest';
import { createBuiltInAnalyser, type ArchivistRecord } from '../../src/archivist/analyser.ts';

let sequence = 0;
function record(content: string, fields: Partial<ArchivistRecord> = {}): ArchivistRecord {
  sequence += 1;
  return {
    id: `r${sequence}`,
    content,
    factKey: null,
    sourceId: null,
    sourceHash: null,
    createdAt: new Date(Date.UTC(2025, 0, 1) + sequence * 60_000),
    ...fields,
  };
}

const background = [
  'The dashboard is a Next.js app deployed on Vercel.',
  'Secrets are stored in AWS Secrets Manager.',
  'The user prefers answers in short bullet points.',
  'Grafana alerts page the on-call engineer through PagerDuty.',
  'Kubernetes manifests live in the infra/k8s directory.',
].map((content) => record(content));

const analyser = createBuiltInAnalyser();

describe('built-in analyser', () => {
  it('marks an older version of a fact stale when a newer one contradicts it', async () => {
    const old = record('The primary Postgres database runs on db-primary-1.internal, port 5432.', {
      factKey: 'db-primary-host',
    });
    const next = record('Primary Postgres moved to db-primary-3.internal; the port stays 5432.', {
      factKey: 'db-primary-host',
    });
    const analysis = await analyser.analyse({ record: next, candidates: [old, ...background] });
    expect(analysis.relations).toEqual([
      expect.objectContaining({ fromId: next.id, toId: old.id, relation: 'supersedes' }),
    ]);
    expect(analysis.marks.map(({ recordId, mark }) => ({ recordId, mark }))).toEqual([
      { recordId: old.id, mark: 'stale' },
    ]);
    expect(analysis.marks[0]?.reason).toContain('db-primary-1.internal → db-primary-3.internal');
  });

  it('links a fix to the problem report with the same issue number', async () => {
    const bug = record(
      'Bug #412: login fails on Safari because the session cookie is missing SameSite=None.',
    );
    const other = record('Bug #413: avatars fail to upload when larger than 5 MB.');
    const fix = record('Fixed #412: the session cookie now sets SameSite=None and Secure.');
    const analysis = await analyser.analyse({ record: fix, candidates: [bug, other, ...background] });
    expect(analysis.relations).toEqual([
      expect.objectContaining({ toId: bug.id, relation: 'fixes_issue', reason: 'fixes the issue #412' }),
    ]);
    expect(analysis.marks).toEqual([]);
  });

  it('marks an older record refined when the newer one only adds detail', async () => {
    const old = record('Database backups run nightly.', { factKey: 'db-backups' });
    const next = record(
      'Database backups run nightly at 02:00 UTC with pg_dump and are kept for 30 days in S3.',
      {
        factKey: 'db-backups',
      },
    );
    const analysis = await analyser.analyse({ record: next, candidates: [old, ...background] });
    expect(analysis.relations).toEqual([expect.objectContaining({ toId: old.id, relation: 'relates_to' })]);
    expect(analysis.marks).toEqual([expect.objectContaining({ recordId: old.id, mark: 'refined' })]);
  });

  it('relates records on one topic and leaves unrelated ones alone', async () => {
    const billing = record('The billing service sends invoices through Stripe.');
    const next = record(
      'Stripe webhook signatures must be verified against the raw request body in the billing service.',
    );
    const analysis = await analyser.analyse({ record: next, candidates: [billing, ...background] });
    expect(analysis.relations.map((relation) => [relation.toId, relation.relation])).toEqual([
      [billing.id, 'relates_to'],
    ]);
    expect(analysis.relations[0]?.reason).toContain('stripe');
  });

  it('never links a record to itself or to anything but its candidates', async () => {
    const next = record('Staging is deployed with the systemd unit app-staging.');
    const twin = { ...next };
    const similar = record('Staging deploys use the app-staging systemd unit.');
    const analysis = await analyser.analyse({
      record: next,
      candidates: [twin, similar, similar, ...background],
    });
    const ids = new Set([similar.id, ...background.map((candidate) => candidate.id)]);
    for (const relation of analysis.relations) {
      expect(relation.fromId).toBe(next.id);
      expect(relation.toId).not.toBe(next.id);
      expect(ids.has(relation.toId)).toBe(true);
    }
    expect(analysis.relations.filter((relation) => relation.toId === similar.id)).toHaveLength(1);
  });

  it('gives weights in [0, 1] with two decimals', async () => {
    const old = record('Public API rate limit is 100 requests per minute per key.', {
      factKey: 'api-rate-limit',
    });
    const near = record('The API returns 429 with a Retry-After header when the rate limit is hit.');
    const next = record('Public API rate limit raised to 300 requests per minute per key.', {
      factKey: 'api-rate-limit',
    });
    const analysis = await analyser.analyse({ record: next, candidates: [old, near, ...background] });
    expect(analysis.relations.length).toBeGreaterThan(0);
    for (const { weight } of analysis.relations) {
      expect(weight).toBeGreaterThanOrEqual(0);
      expect(weight).toBeLessThanOrEqual(1);
      expect(Math.round(weight * 100) / 100).toBe(weight);
    }
  });

  it('does not supersede across different fact_keys or a record newer than itself', async () => {
    const redis = record('The production Redis version is 7.2.', { factKey: 'redis-version' });
    const postgres = record('The production Postgres version is 16.2.', { factKey: 'pg-version' });
    const later = record('Nightly backups go to the bucket mmw-backups-eu-2.', {
      createdAt: new Date(Date.UTC(2030, 0, 1)),
    });
    const next = record('Nightly backups go to the bucket mmw-backups-eu.');
    const analysis = await analyser.analyse({ record: postgres, candidates: [redis, ...background] });
    expect(analysis.relations.some((relation) => relation.relation === 'supersedes')).toBe(false);
    const reversed = await analyser.analyse({ record: next, candidates: [later, ...background] });
    expect(reversed.marks).toEqual([]);
  });

  it('gives the same answer for the same input and nothing without candidates', async () => {
    const next = record('Production deploys go through the release pipeline, which runs migrations first.');
    const candidates = [record('Production deploys go through the release pipeline.'), ...background];
    const first = await analyser.analyse({ record: next, candidates });
    expect(await analyser.analyse({ record: next, candidates })).toEqual(first);
    expect(await analyser.analyse({ record: next, candidates: [] })).toEqual({ relations: [], marks: [] });
  });
});
