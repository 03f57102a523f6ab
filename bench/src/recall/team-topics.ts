/**
 * The topics of the team set: what a software team writes down, and how people ask about it.
 * Each topic has one way a record says it and three ways a question asks for it: in the record's
 * own words (`same`), in other forms of those words (`forms`: deploy / deployed / deployment), and
 * in other words (`para`): only the names of things ({svc}, {person}, {env}, {tool}) stay, as a
 * person asking would name them. Written before any tuning; topics are split into halves by index.
 */
export interface TeamTopic {
  record: string;
  same: string;
  forms: string;
  para: string;
}

export const teamTopics: TeamTopic[] = [
  {
    record: '{person} deployed {svc} to {env} on {day} with the {tool} pipeline',
    same: 'who deployed {svc} to {env}?',
    forms: 'who handles deployments of {svc} to {env}?',
    para: 'who shipped {svc} to {env} last time?',
  },
  {
    record: 'To roll back {svc}, run the revert job in {tool} and pick the previous build',
    same: 'how do we roll back {svc}?',
    forms: 'what are the steps for rolling back {svc}?',
    para: 'how can I undo a bad release of {svc}?',
  },
  {
    record: 'The {svc} worker retries failed jobs {n} times with exponential backoff',
    same: 'how many times does the {svc} worker retry failed jobs?',
    forms: 'is there retrying when {svc} job processing fails?',
    para: 'what happens when a {svc} task errors out, does it try again?',
  },
  {
    record: '{svc} logs are shipped to {tool} and kept for {n} days',
    same: 'where are {svc} logs kept?',
    forms: 'where does {svc} do its logging?',
    para: 'how long do we retain the output that {svc} prints?',
  },
  {
    record: 'The {svc} database password is stored in the vault under secret/{svc}',
    same: 'where is the {svc} database password stored?',
    forms: 'where do we store passwords for the {svc} databases?',
    para: 'where can I find the credentials for the {svc} db?',
  },
  {
    record: '{svc} alerts page the on-call engineer when the error rate exceeds {n} percent',
    same: 'when do {svc} alerts page the on-call engineer?',
    forms: 'what triggers alerting and paging for {svc}?',
    para: 'at what failure threshold does {svc} wake someone up?',
  },
  {
    record: 'We decided to migrate {svc} from MySQL to Postgres during the {day} planning meeting',
    same: 'did we decide to migrate {svc} from MySQL to Postgres?',
    forms: 'what was the decision on migrating {svc} to Postgres?',
    para: 'which datastore is {svc} moving to?',
  },
  {
    record: 'The {svc} cache expires entries after {n} minutes to keep prices fresh',
    same: 'when does the {svc} cache expire entries?',
    forms: 'what is the expiry of cached {svc} entries?',
    para: 'how long is data memoized in {svc} before it is refreshed?',
  },
  {
    record: '{svc} backups run nightly at 02:00 and are restored weekly in a drill by {person}',
    same: 'when do {svc} backups run?',
    forms: 'how is backing up of {svc} scheduled?',
    para: 'is there a copy of {svc} data in case of disaster, and when is it made?',
  },
  {
    record: 'The {svc} API rate limit is {n} requests per minute for each customer',
    same: 'what is the {svc} API rate limit per customer?',
    forms: 'how are customers limited when requesting the {svc} API?',
    para: 'how many calls can a client make to {svc} before it gets throttled?',
  },
  {
    record: '{person} owns the {svc} service and reviews every pull request to it',
    same: 'who owns the {svc} service?',
    forms: 'who is the owner reviewing {svc} pull requests?',
    para: 'who is responsible for {svc} and approves its code changes?',
  },
  {
    record: 'The {svc} tests run in {tool} on every push and take about {n} minutes',
    same: 'how long do the {svc} tests take to run?',
    forms: 'how long is {svc} testing running on each pushed commit?',
    para: 'how slow is the {svc} suite in CI?',
  },
  {
    record: 'The {svc} outage on {day} was caused by an expired TLS certificate',
    same: 'what caused the {svc} outage on {day}?',
    forms: 'why was {svc} out, was a certificate expiring?',
    para: 'why did {svc} go down on {day}?',
  },
  {
    record: '{svc} configuration lives in config/{svc}.yaml and is reloaded without a restart',
    same: 'where does the {svc} configuration live?',
    forms: 'where is {svc} configured, and can it reload?',
    para: 'which file holds the {svc} settings?',
  },
  {
    record: 'The {svc} queue is drained by {n} consumers running in {env}',
    same: 'how many consumers drain the {svc} queue?',
    forms: 'how is the {svc} queue draining done by its consumer?',
    para: 'how many workers pull messages off the {svc} backlog?',
  },
  {
    record: '{person} upgraded {svc} to Node 22 after the security advisory on {day}',
    same: 'who upgraded {svc} to Node 22?',
    forms: 'who is upgrading the {svc} node version?',
    para: 'who bumped the runtime of {svc} after the vulnerability notice?',
  },
  {
    record: '{svc} sends email receipts through the SMTP relay with a retry budget of {n}',
    same: 'how does {svc} send email receipts?',
    forms: 'what does {svc} use for sending emails and receipts?',
    para: 'how does {svc} deliver mail confirmations to customers?',
  },
  {
    record: 'The {svc} dashboard in {tool} shows latency, throughput and error rate',
    same: 'what does the {svc} dashboard show?',
    forms: 'which dashboards show {svc} latencies?',
    para: 'where can I see graphs of how fast {svc} responds?',
  },
  {
    record: 'Feature flags for {svc} are toggled in {tool} and audited every {day}',
    same: 'where are feature flags for {svc} toggled?',
    forms: 'how is flag toggling done for {svc} features?',
    para: 'how do I switch a {svc} capability on or off?',
  },
  {
    record: 'The {svc} build failed on {day} because a dependency was yanked from npm',
    same: 'why did the {svc} build fail on {day}?',
    forms: 'what made {svc} builds failing, a yanked dependency?',
    para: 'why was the {svc} compile broken on {day}?',
  },
  {
    record: 'Customers of {svc} are billed monthly through Stripe invoices',
    same: 'how are customers of {svc} billed?',
    forms: 'how does billing work for {svc} customers and their invoice?',
    para: 'how do {svc} clients pay us?',
  },
  {
    record: 'The {svc} schema migration adds an index on created_at and runs in {n} seconds',
    same: 'what does the {svc} schema migration add?',
    forms: 'which indexes are added when migrating the {svc} schema?',
    para: 'what changes does the {svc} table upgrade bring?',
  },
  {
    record: '{svc} runs in a Docker container on Kubernetes with {n} replicas in {env}',
    same: 'how many replicas does {svc} run in {env}?',
    forms: 'how many replica containers of {svc} are running in {env}?',
    para: 'how many copies of {svc} are up in {env}?',
  },
  {
    record: 'The {svc} runbook says to restart the pods when memory usage passes {n} percent',
    same: 'when does the {svc} runbook say to restart the pods?',
    forms: 'when should we be restarting {svc} pods for memory?',
    para: 'what should on-call do if {svc} eats too much RAM?',
  },
];
