/**
 * Synonyms for the engineering domain, lowercase single words. Alias groups name one thing
 * (postgres ~ postgresql ~ pg); related groups are words a person may use to look for the same
 * topic (deploy ~ release ~ rollout). Query expansion uses both; the analyser only treats aliases
 * as equal values, so "Postgres 16.2" and "PostgreSQL 16.2" do not contradict each other.
 */
export const aliasGroups: ReadonlyArray<readonly string[]> = [
  ['postgres', 'postgresql', 'pg', 'psql'],
  ['kubernetes', 'k8s', 'kube'],
  ['authentication', 'auth', 'authn'],
  ['authorization', 'authz'],
  ['environment', 'env', 'envs'],
  ['production', 'prod'],
  ['staging', 'stg', 'stage'],
  ['development', 'dev'],
  ['repository', 'repo', 'repos'],
  ['configuration', 'config', 'conf', 'cfg'],
  ['database', 'db', 'dbs'],
  ['documentation', 'docs', 'doc'],
  ['dependencies', 'deps', 'dependency'],
  ['javascript', 'js'],
  ['typescript', 'ts'],
  ['nodejs', 'node'],
  ['python', 'py'],
  ['certificate', 'cert', 'certs'],
  ['message', 'msg'],
  ['kafka', 'msk'],
];

export const relatedGroups: ReadonlyArray<readonly string[]> = [
  ['database', 'postgres', 'postgresql', 'pg', 'mysql', 'sql'],
  ['kubernetes', 'cluster', 'pod', 'pods', 'helm'],
  ['authentication', 'login', 'signin', 'sso', 'oauth', 'session'],
  ['authorization', 'permissions', 'rbac', 'roles'],
  ['pipeline', 'ci', 'cicd', 'workflow', 'jenkins', 'actions', 'build'],
  ['configuration', 'settings', 'options'],
  ['deploy', 'release', 'rollout', 'ship', 'deployment'],
  ['rollback', 'revert', 'downgrade'],
  ['secret', 'secrets', 'credentials', 'token', 'password', 'apikey'],
  ['incident', 'outage', 'downtime', 'postmortem'],
  ['bug', 'issue', 'defect', 'regression', 'crash'],
  ['cache', 'redis', 'memcached'],
  ['queue', 'jobs', 'worker', 'bullmq', 'pgboss'],
  ['monitoring', 'observability', 'metrics', 'grafana', 'prometheus', 'alerts', 'dashboards'],
  ['logs', 'logging', 'loki'],
  ['dns', 'domain', 'hostname'],
  ['certificate', 'tls', 'ssl', 'https'],
  ['container', 'docker', 'image', 'compose'],
  ['server', 'host', 'machine', 'vm', 'instance'],
  ['test', 'tests', 'testing', 'spec', 'e2e'],
  ['documentation', 'readme', 'wiki', 'runbook'],
  ['dependencies', 'package', 'packages', 'npm', 'pnpm'],
  ['email', 'mail', 'smtp'],
  ['payment', 'payments', 'billing', 'stripe', 'invoice', 'invoices'],
  ['schedule', 'cron', 'timer', 'nightly'],
  ['backup', 'backups', 'snapshot', 'dump', 'restore'],
  ['migration', 'migrations', 'schema'],
  ['api', 'endpoint', 'endpoints', 'rest', 'graphql', 'route'],
  ['user', 'users', 'customer', 'customers', 'account', 'accounts'],
  ['decision', 'decided', 'agreement', 'agreed', 'convention', 'policy'],
  ['preference', 'prefers', 'prefer', 'preferred'],
  ['aws', 'amazon', 's3', 'ec2', 'eks'],
  ['storage', 's3', 'bucket', 'blob'],
  ['owner', 'owns', 'maintainer', 'lead'],
  ['oncall', 'pager', 'pagerduty', 'rotation'],
];

export const synonymGroups: ReadonlyArray<readonly string[]> = [...aliasGroups, ...relatedGroups];

const aliasOf = new Map<string, string>();
for (const group of aliasGroups) {
  const [head] = group;
  if (head !== undefined) for (const word of group) if (!aliasOf.has(word)) aliasOf.set(word, head);
}

/** The first word of the alias group `word` belongs to, or the word itself. */
export function canonicalAlias(word: string): string {
  return aliasOf.get(word) ?? word;
}
