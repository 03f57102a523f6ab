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

/**
 * A thesaurus of how software teams ask about one topic in other words (undo ~ revert ~ rollback,
 * pay ~ charge ~ bill). Every word of a group matches every other, and a word in two groups matches
 * both, so groups stay small and near-interchangeable: a record scores by how many query words it
 * matches, and each word added here also brings its stem (responsible → respons, also response).
 * Verbs and nouns are listed when their stems differ (retain, retention); inflections need not be.
 * Generic words (change, run, update) are left out: they would give a point to unrelated records.
 */
export const relatedGroups: ReadonlyArray<readonly string[]> = [
  ['database', 'postgres', 'postgresql', 'pg', 'mysql', 'sql'],
  ['kubernetes', 'cluster', 'pod', 'pods', 'helm'],
  ['authentication', 'login', 'signin', 'sso', 'oauth', 'session'],
  ['authorization', 'permissions', 'rbac', 'roles'],
  ['pipeline', 'ci', 'cicd', 'workflow', 'jenkins', 'actions', 'build'],
  ['configuration', 'settings', 'options'],
  ['deploy', 'release', 'rollout', 'ship', 'deployment'],
  ['rollback', 'revert', 'downgrade', 'undo', 'backout'],
  ['secret', 'secrets', 'credentials', 'token', 'password', 'apikey'],
  ['incident', 'outage', 'downtime', 'postmortem', 'emergency'],
  ['bug', 'issue', 'defect', 'regression', 'crash', 'glitch'],
  ['cache', 'redis', 'memcached'],
  ['queue', 'jobs', 'worker', 'bullmq', 'pgboss'],
  ['monitoring', 'observability', 'metrics', 'grafana', 'prometheus', 'alerts', 'dashboards'],
  ['logs', 'logging', 'loki', 'splunk', 'papertrail', 'kibana'],
  ['dns', 'domain', 'hostname', 'nameserver', 'route53'],
  ['certificate', 'tls', 'ssl', 'https', 'letsencrypt', 'certbot', 'x509'],
  ['container', 'docker', 'image', 'compose', 'dockerfile', 'podman'],
  ['server', 'host', 'machine', 'vm', 'instance', 'droplet', 'baremetal'],
  ['test', 'tests', 'testing', 'spec', 'e2e', 'suite'],
  ['documentation', 'readme', 'wiki', 'runbook'],
  ['dependencies', 'package', 'packages', 'npm', 'pnpm', 'yarn'],
  ['email', 'mail', 'smtp', 'inbox'],
  ['payment', 'payments', 'billing', 'stripe', 'invoice', 'invoices'],
  ['schedule', 'cron', 'timer', 'nightly', 'crontab', 'recurring'],
  ['backup', 'backups', 'snapshot', 'dump', 'restore'],
  ['migration', 'migrations', 'schema', 'ddl'],
  ['api', 'endpoint', 'endpoints', 'rest', 'graphql', 'route'],
  ['user', 'users', 'customer', 'customers', 'account', 'accounts'],
  ['decision', 'decided', 'agreement', 'agreed', 'convention', 'policy', 'consensus'],
  ['preference', 'prefers', 'prefer', 'preferred'],
  ['aws', 'amazon', 's3', 'ec2', 'eks'],
  ['storage', 's3', 'bucket', 'blob', 'gcs', 'minio'],
  ['owner', 'owns', 'maintainer', 'lead', 'codeowners'],
  ['oncall', 'pager', 'pagerduty', 'rotation', 'opsgenie', 'escalation'],

  // Releases and how they are rolled out
  ['release', 'publish', 'launch'],
  ['hotfix', 'patch', 'quickfix'],
  ['canary', 'gradual', 'incremental', 'bluegreen'],
  ['freeze', 'moratorium', 'blackout'],
  ['version', 'semver', 'versioning'],
  ['golive', 'launch', 'cutover'],

  // Failures and repair
  ['error', 'exception', 'failure', 'fail', 'fault'],
  ['crash', 'panic', 'segfault', 'coredump', 'sigsegv'],
  ['outage', 'disruption', 'unavailable', 'offline', 'unreachable'],
  ['broken', 'faulty', 'malfunction', 'defective'],
  ['flaky', 'flake', 'intermittent', 'nondeterministic', 'sporadic', 'unstable'],
  ['hang', 'stuck', 'unresponsive', 'frozen', 'deadlock'],
  ['fix', 'repair', 'mend', 'resolve', 'solve'],
  ['workaround', 'kludge', 'bandaid', 'stopgap'],
  ['fallback', 'degrade', 'degradation'],
  ['failover', 'switchover', 'promote'],
  ['debug', 'troubleshoot', 'diagnose', 'investigate', 'triage'],
  ['stacktrace', 'traceback', 'backtrace'],
  ['sentry', 'bugsnag', 'rollbar', 'crashlytics', 'honeybadger'],

  // Retries, restarts and stopping
  ['retry', 'backoff', 'reattempt', 'redeliver', 'resend'],
  ['dedupe', 'dedup', 'deduplicate', 'idempotent', 'idempotency'],
  ['restart', 'reboot', 'bounce', 'recycle', 'respawn'],
  ['abort', 'cancel', 'halt'],
  ['kill', 'terminate', 'sigterm', 'sigkill'],

  // Logs and output
  ['log', 'output', 'stdout', 'stderr'],
  ['print', 'printf', 'println', 'console', 'log'],
  ['trace', 'tracing', 'span', 'opentelemetry', 'otel', 'jaeger'],

  // Monitoring and alerting
  ['dashboard', 'graph', 'chart', 'plot'],
  ['metric', 'telemetry', 'measurement', 'stats', 'statistics'],
  ['healthcheck', 'health', 'heartbeat', 'probe'],
  ['alert', 'alarm', 'page', 'pager', 'wake', 'opsgenie'],
  ['severity', 'sev', 'sev1', 'sev2', 'criticality'],
  ['postmortem', 'rca', 'debrief', 'rootcause', 'retrospective'],

  // Reliability and performance
  ['uptime', 'availability', 'sla', 'slo', 'sli'],
  ['latency', 'responsetime', 'p99', 'p95', 'p50', 'rtt'],
  ['slow', 'sluggish', 'laggy', 'slowdown', 'latency'],
  ['performance', 'perf', 'speed'],
  ['throughput', 'rps', 'qps', 'tps', 'bandwidth'],
  ['optimize', 'optimise', 'tune', 'speedup'],
  ['timeout', 'timedout', 'etimedout', '504'],
  ['spike', 'surge', 'burst', 'peak'],
  ['loadtest', 'stresstest', 'stress', 'soak', 'benchmark', 'k6', 'locust'],

  // Capacity and resources
  ['scale', 'autoscale', 'autoscaler', 'hpa', 'elastic', 'capacity'],
  ['replica', 'replication', 'mirror'],
  ['ram', 'memory', 'heap', 'rss'],
  ['oom', 'oomkilled', 'outofmemory'],
  ['cpu', 'vcpu', 'compute', 'processor'],
  ['disk', 'volume', 'ssd', 'ebs', 'pvc'],

  // Code review and code quality
  ['review', 'approve', 'approval', 'signoff', 'lgtm'],
  ['pr', 'prs', 'pullrequest', 'mergerequest', 'changeset', 'diff'],
  ['merge', 'land', 'squash'],
  ['branch', 'trunk', 'mainline', 'fork'],
  ['commit', 'changeset', 'revision', 'sha'],
  ['lint', 'linter', 'eslint', 'prettier', 'formatter'],
  ['refactor', 'cleanup', 'rewrite', 'restructure', 'reorganize'],
  ['techdebt', 'debt', 'cruft', 'legacy'],
  ['mock', 'stub', 'fake', 'spy'],

  // Builds and dependencies
  ['compile', 'compilation', 'compiler', 'transpile', 'build'],
  ['artifact', 'artefact', 'binary', 'tarball'],
  ['library', 'lib', 'libs', 'sdk', 'package', 'dependency'],
  ['bump', 'upgrade', 'uplift', 'dependabot', 'renovate'],
  ['deprecate', 'sunset', 'retire', 'eol', 'obsolete', 'decommission'],
  ['compatible', 'compatibility', 'backcompat', 'interop', 'incompatible'],

  // Configuration and feature flags
  ['parameter', 'param', 'params', 'argument', 'arg', 'args'],
  ['dotenv', 'envvar', 'envvars', 'env'],
  ['flag', 'toggle', 'featureflag', 'killswitch', 'launchdarkly', 'unleash'],
  ['enable', 'activate'],
  ['disable', 'deactivate'],
  ['experiment', 'abtest', 'splittest', 'variant'],

  // Caching
  ['cache', 'memoize', 'memoization', 'memo'],
  ['evict', 'eviction', 'invalidate', 'invalidation', 'flush', 'bust'],
  ['expire', 'expiry', 'ttl', 'lapse'],
  ['stale', 'outdated', 'expired'],
  ['refresh', 'reload', 'resync'],
  ['cdn', 'cloudflare', 'akamai', 'cloudfront', 'edge'],

  // Data stores and data jobs
  ['datastore', 'database', 'db', 'rdbms'],
  ['shard', 'partition'],
  ['backfill', 'reprocess', 'recompute', 'replay'],
  ['batch', 'bulk', 'mass'],
  ['import', 'ingest', 'ingestion', 'intake'],
  ['validate', 'verify', 'verification', 'sanitize'],

  // Backups, retention and deletion
  ['recover', 'recovery', 'restore', 'disaster'],
  ['snapshot', 'checkpoint', 'pitr'],
  ['archive', 'glacier', 'coldstorage'],
  ['retain', 'retention', 'keep', 'preserve'],
  ['delete', 'remove', 'erase', 'erasure', 'purge', 'wipe', 'expunge'],
  ['anonymize', 'anonymise', 'pseudonymize', 'redact', 'mask', 'scrub'],
  ['privacy', 'gdpr', 'ccpa', 'pii', 'dsar'],

  // Limits and queues
  ['throttle', 'ratelimit', 'quota', 'limit', 'cap', '429'],
  ['backlog', 'pileup', 'lag', 'queue'],
  ['consumer', 'listener', 'worker'],
  ['broker', 'kafka', 'rabbitmq', 'sqs', 'pubsub', 'amqp'],
  ['deadletter', 'dlq', 'poison', 'quarantine'],
  ['webhook', 'callback', 'postback'],

  // Email and notifications
  ['mailer', 'sendgrid', 'mailgun', 'postmark', 'ses', 'email'],
  ['notification', 'notify', 'announcement'],
  ['receipt', 'confirmation', 'confirm', 'acknowledgement', 'acknowledge', 'ack'],
  ['sms', 'twilio', 'mms'],
  ['undeliverable', 'undelivered', 'nondelivery'],
  ['unsubscribe', 'optout', 'unsub'],

  // Billing, pricing and costs
  ['pay', 'payment', 'charge', 'bill', 'billing'],
  ['pricing', 'price', 'fee', 'tariff'],
  ['subscription', 'membership', 'tier'],
  ['refund', 'chargeback', 'reimburse', 'reimbursement'],
  ['checkout', 'purchase', 'buy'],
  ['revenue', 'income', 'arr', 'mrr', 'sales'],
  ['discount', 'coupon', 'promo', 'voucher', 'promocode'],
  ['dunning', 'unpaid', 'pastdue', 'delinquent', 'arrears'],
  ['metering', 'meter', 'consumption', 'usage'],
  ['cost', 'spend', 'expense', 'expenditure', 'budget', 'bill'],
  ['cheap', 'inexpensive', 'affordable', 'cheaper'],
  ['expensive', 'costly', 'pricey'],

  // Vendors and infrastructure
  ['vendor', 'provider', 'supplier', 'thirdparty'],
  ['terraform', 'iac', 'pulumi', 'cloudformation', 'cdk', 'opentofu'],
  ['registry', 'ecr', 'ghcr', 'dockerhub', 'gcr', 'harbor'],

  // Security
  ['vulnerability', 'vuln', 'cve', 'advisory', 'exploit'],
  ['remediate', 'remediation', 'mitigate', 'mitigation', 'patch'],
  ['security', 'infosec', 'appsec', 'cybersecurity'],
  ['compliance', 'soc2', 'iso27001', 'pci', 'hipaa', 'audit'],
  ['encrypt', 'encryption', 'cipher', 'kms', 'aes'],
  ['breach', 'compromise', 'intrusion', 'attack'],
  ['leak', 'expose', 'exposure', 'disclose', 'disclosure'],
  ['firewall', 'waf', 'iptables', 'securitygroup'],
  ['allowlist', 'whitelist', 'safelist'],
  ['denylist', 'blacklist', 'blocklist'],

  // Access, identity and secrets
  ['permission', 'access', 'privilege', 'grant', 'acl'],
  ['admin', 'administrator', 'superuser', 'sudo'],
  ['forbidden', 'deny', 'unauthorized', 'unauthorised', '401', '403'],
  ['revoke', 'revocation', 'rescind', 'withdraw'],
  ['sso', 'saml', 'oidc', 'okta', 'idp', 'auth0'],
  ['mfa', '2fa', 'totp', 'otp', 'twofactor'],
  ['signup', 'register', 'registration', 'enroll', 'enrollment'],
  ['logout', 'signout', 'logoff'],
  ['password', 'passphrase', 'passcode', 'pwd'],
  ['vault', 'secretsmanager', 'keychain', 'ssm'],
  ['rotate', 'rekey', 'regenerate', 'reissue'],
  ['renew', 'reissue', 'prolong'],
  ['jwt', 'bearer', 'token', 'accesstoken', 'refreshtoken'],

  // Networking
  ['port', 'socket', 'tcp', 'udp'],
  ['loadbalancer', 'lb', 'alb', 'elb', 'nlb', 'haproxy', 'balancer'],
  ['proxy', 'reverseproxy', 'nginx', 'envoy', 'traefik', 'caddy', 'ingress'],
  ['vpc', 'subnet', 'peering', 'cidr', 'vpn'],
  ['url', 'uri', 'link', 'href'],
  ['openapi', 'swagger', 'apidoc', 'apispec'],

  // Environments, clients and platforms
  ['staging', 'preprod', 'uat', 'qa', 'sandbox', 'preview'],
  ['localhost', 'devbox', 'laptop', 'workstation', 'devcontainer', 'codespace'],
  ['cli', 'commandline', 'shell'],
  ['frontend', 'ui', 'fe', 'webapp', 'spa'],
  ['backend', 'serverside'],
  ['ui', 'ux', 'interface', 'gui'],
  ['i18n', 'l10n', 'internationalization', 'translation'],
  ['mobile', 'ios', 'android', 'smartphone', 'handset'],
  ['appstore', 'playstore', 'googleplay', 'testflight'],

  // Search and analytics
  ['search', 'lookup', 'retrieval', 'retrieve'],
  ['elasticsearch', 'opensearch', 'solr', 'algolia', 'meilisearch', 'typesense'],
  ['embedding', 'vector', 'pgvector', 'faiss', 'pinecone'],
  ['analytics', 'tracking', 'mixpanel', 'amplitude', 'posthog', 'plausible'],

  // Documentation
  ['documentation', 'guide', 'handbook'],
  ['runbook', 'playbook', 'procedure', 'sop', 'checklist'],
  ['howto', 'tutorial', 'walkthrough', 'guide'],
  ['wiki', 'confluence', 'notion'],
  ['rfc', 'proposal', 'designdoc', 'adr', 'writeup'],

  // Planning, meetings and people
  ['meeting', 'standup', 'huddle', 'catchup', 'checkin'],
  ['retro', 'retrospective', 'debrief', 'lookback'],
  ['sprint', 'iteration'],
  ['priority', 'prioritize', 'prioritise', 'urgency', 'urgent', 'p0', 'p1'],
  ['estimate', 'estimation', 'storypoints'],
  ['blocker', 'impediment', 'obstacle', 'blocking'],
  ['goal', 'okr', 'kpi'],
  ['deadline', 'duedate', 'cutoff', 'eta'],
  ['delay', 'slip', 'overdue', 'postpone', 'reschedule'],
  ['ticket', 'jira', 'story', 'epic'],
  ['support', 'helpdesk', 'zendesk', 'intercom', 'servicedesk', 'freshdesk'],
  ['feedback', 'suggestion', 'survey', 'nps'],
  ['customer', 'client', 'buyer'],
  ['owner', 'ownership', 'responsible', 'dri', 'steward'],
  ['contact', 'poc', 'liaison'],
  ['handoff', 'handover', 'transition'],
  ['hire', 'recruit', 'recruitment', 'recruiter', 'headcount'],
  ['candidate', 'applicant', 'interviewee'],
  ['onboarding', 'rampup', 'orientation', 'newhire'],
  ['offboarding', 'leaver', 'departure'],
  ['contractor', 'freelancer', 'consultant', 'agency'],
  ['vacation', 'pto', 'holiday', 'ooo', 'outofoffice', 'timeoff'],
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
