import { pick, randomFor, uuidFor, zipf, type Random } from './random.ts';

/**
 * The records an engineering team's assistants would keep: deploy notes, decisions, incidents,
 * preferences. Slot words follow Zipf weights, so a few words ("staging", "api", "the") occur in a
 * large share of the records while codenames, customers and issue numbers occur in a handful.
 */
const components = zipf([
  'api', 'billing', 'auth', 'search', 'worker', 'gateway', 'dashboard', 'scheduler', 'ingest', 'payments',
  'notifications', 'reporting', 'exporter', 'webhooks', 'analytics', 'cache', 'storage', 'mailer', 'importer',
  'checkout', 'inventory', 'profile', 'onboarding', 'metrics', 'admin', 'sync', 'frontend', 'ledger',
]);
const envs = zipf(['staging', 'production', 'dev', 'preview', 'qa', 'sandbox', 'canary']);
const techs = zipf([
  'postgres', 'redis', 'kafka', 'docker', 'kubernetes', 'terraform', 'nginx', 'node', 'python', 'react', 'vite',
  'pnpm', 'github', 'sentry', 'grafana', 'prometheus', 'stripe', 's3', 'cloudflare', 'rabbitmq', 'elasticsearch',
  'helm', 'vault', 'datadog', 'fastify', 'drizzle', 'playwright', 'vitest',
]);
const things = zipf([
  'database', 'config', 'migration', 'queue', 'endpoint', 'cron job', 'feature flag', 'schema', 'pipeline', 'alert',
  'runbook', 'dockerfile', 'manifest', 'test suite', 'index', 'replica', 'secret rotation', 'release notes',
  'load balancer', 'connection pool', 'retry policy', 'rate limit', 'backup', 'changelog',
]);
const problems = zipf([
  'a timeout', 'a memory leak', 'a deadlock', 'a race condition', 'a slow query', 'connection resets',
  '502 errors', 'a flaky test', 'a full disk', 'high latency', 'a stale cache', 'a missing index', 'a retry storm',
  'an expired certificate', 'duplicate events', 'lost writes',
]);
const failures = zipf(['failed', 'timed out', 'crashed', 'slowed down', 'stalled', 'restarted', 'dropped requests']);
const fixes = zipf([
  'raising the pool size', 'adding an index', 'rolling back the release', 'pinning the version',
  'increasing the timeout', 'restarting the pods', 'clearing the cache', 'splitting the batch',
  'moving the job to the worker', 'adding a retry with backoff', 'rotating the credentials',
]);
const reasons = zipf([
  'it is faster', 'the team already knows it', 'it keeps costs down', 'the old one kept failing',
  'it supports retries', 'support asked for it', 'it is simpler to operate', 'the vendor dropped the old API',
]);
const preferences = zipf([
  'pnpm, not npm', 'small pull requests', 'tests before merging', 'squash merges', 'feature flags for risky changes',
  'one migration per pull request', 'structured logs over print statements', 'explicit types at module boundaries',
  'deploys before noon', 'short commit messages that say why',
]);
const verbs = zipf(['deploy', 'migrate', 'restart', 'roll back', 'scale', 'release', 'back up', 'upgrade', 'rotate']);
const people = [
  'alice', 'bob', 'carol', 'dmitri', 'erin', 'farah', 'gustavo', 'hana', 'ivan', 'jun', 'kofi', 'lena', 'mateo',
  'nadia', 'omar', 'priya', 'quinn', 'rosa', 'sven', 'tariq', 'uma', 'vik', 'wen', 'xavier', 'yara', 'zane',
];
const syllables = [
  'ka', 'ro', 'vel', 'tan', 'mi', 'zor', 'bri', 'lum', 'quo', 'dex', 'fen', 'gal', 'hox', 'jin', 'kru', 'lo', 'mur',
  'nix', 'pra', 'sel', 'tov', 'ur', 'vex', 'wyn', 'yor', 'zal', 'cor', 'dru', 'esk', 'fal',
];

/** 27,000 three-syllable names: project codenames, customers, hosts. Each is rare in the corpus. */
function rareName(index: number): string {
  const n = syllables.length;
  return `${syllables[index % n] ?? ''}${syllables[Math.floor(index / n) % n] ?? ''}${syllables[Math.floor(index / n / n) % n] ?? ''}`;
}
export const RARE_NAMES = syllables.length ** 3;

export interface GeneratedRecord {
  id: string;
  /** Index of the workspace: 0 is the searched one. */
  workspace: number;
  content: string;
  sourceId: string | null;
  factKey: string | null;
  scope: string | null;
  updatedAt: Date;
  /** The rare words of the record, for rare-word queries that are known to match. */
  rareWords: string[];
}

export const WORKSPACES = 100;
/** Share of the records that land in workspace 0: 200k of 1M. */
export const SEARCHED_SHARE = 0.2;
const START = Date.parse('2025-01-01T00:00:00Z');
const STEP_MS = 30_000;

function sentence(random: Random, codename: string, customer: string, issue: number): string {
  const c = () => components(random);
  const e = () => envs(random);
  const t = () => techs(random);
  const th = () => things(random);
  switch (Math.floor(random() * 10)) {
    case 0:
      return `${e()} is deployed with ${t()} through the ${c()} pipeline; run make deploy-${e()} from the repo root.`;
    case 1:
      return `We decided to use ${t()} for the ${c()} ${th()} because ${reasons(random)}.`;
    case 2:
      return `The ${c()} service ${failures(random)} after the ${e()} release: ${problems(random)} in the ${th()}. Fixed by ${fixes(random)}.`;
    case 3:
      return `Issue ${issue}: ${c()} shows ${problems(random)} when the ${th()} is under load. Workaround: ${fixes(random)}.`;
    case 4:
      return `The ${c()} service talks to ${t()}; the ${th()} lives in services/${c()}/${codename}.ts.`;
    case 5:
      return `To ${verbs(random)} ${e()}, check the ${th()} first, then ${verbs(random)} the ${c()} service with ${t()}.`;
    case 6:
      return `The team prefers ${preferences(random)}.`;
    case 7:
      return `Project ${codename} owns the ${c()} ${th()}; ask ${pick(random, people)} before changing it.`;
    case 8:
      return `Customer ${customer} reported ${problems(random)} on the ${c()} page in ${e()}; we traced it to the ${th()}.`;
    default:
      return `${t()} is pinned in the ${c()} ${th()} because ${reasons(random)}.`;
  }
}

/** Record i of the corpus; the same i always gives the same record. */
export function generateRecord(i: number): GeneratedRecord {
  const random = randomFor('record', i);
  const workspace = random() < SEARCHED_SHARE ? 0 : 1 + Math.floor(random() * (WORKSPACES - 1));
  const codename = rareName(Math.floor(random() * RARE_NAMES));
  const customer = rareName(Math.floor(random() * RARE_NAMES));
  const issue = 1000 + Math.floor(random() * 900_000);
  const count = 1 + Math.floor(random() * 3);
  const parts: string[] = [];
  for (let s = 0; s < count; s++) parts.push(sentence(random, codename, customer, issue));
  const content = parts.join(' ');
  const rareWords = [codename, customer, String(issue)].filter((word) => content.includes(word));
  const sourceRoll = random();
  const sourceId =
    sourceRoll < 0.25
      ? `docs/${components(random)}/${codename}.md`
      : sourceRoll < 0.4
        ? `services/${components(random)}/index.ts`
        : null;
  const factKey = random() < 0.08 ? `${components(random)}-${things(random).replace(/ /g, '-')}` : null;
  const scopeRoll = random();
  const scope = scopeRoll < 0.3 ? 'shared' : scopeRoll < 0.4 ? 'private' : null;
  return {
    id: uuidFor('record', i),
    workspace,
    content,
    sourceId,
    factKey,
    scope,
    updatedAt: new Date(START + i * STEP_MS),
    rareWords,
  };
}

/** Queries whose words are common in the corpus, as people phrase them. */
export const COMMON_QUERIES = [
  'deploy staging',
  'the api service',
  'postgres database migration',
  'how do we deploy the billing service',
  'production release failed',
  'redis cache timeout',
  'the worker queue',
  'kubernetes pipeline config',
];

/** Whole questions of 6 to 16 words, as assistants ask memory, over the corpus's own topics. */
export const QUESTION_QUERIES = [
  'how do we deploy the billing service to staging?',
  'why did the production release of the api service fail last week?',
  'what did we decide about the postgres database migration for the worker queue?',
  'who should I ask before changing the kubernetes pipeline config of the search service?',
  'is there a workaround for the redis cache timeout when the queue is under load?',
  'which library is pinned in the notifications service and why did the team pin it?',
  'what does the team prefer for reviews and releases on fridays?',
  'where does the webhooks service keep its retry policy and what does it talk to?',
];

/** Queries that match nothing or name no topic: search expands them. */
export const EXPANSION_QUERIES = [
  'outage postmortem',
  'db outage',
  'k8s rollout',
  'what is the setup',
  'give me an overview',
  'oncall handbook',
  'throughput regression',
  'tell me everything',
];
