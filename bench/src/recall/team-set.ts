import { randomFor, type Random } from '../random.ts';
import type { LabelledSet } from './labelled-set.ts';
import { teamTopics, type TeamTopic } from './team-topics.ts';
import { teamTopicsApart } from './team-topics-apart.ts';

const services = [
  'billing', 'checkout', 'notifier', 'indexer', 'gateway', 'scheduler', 'exporter', 'importer', 'mailer',
  'reporting', 'inventory', 'pricing', 'payroll', 'tracker', 'uploader', 'renderer', 'webhooks', 'analytics',
  'catalog', 'ledger', 'sessions', 'shipping', 'invoicing', 'audit', 'search', 'recommender', 'thumbnailer',
  'geocoder', 'chat', 'storefront', 'quotes', 'signup', 'fraud', 'loyalty', 'coupons', 'tax', 'refunds',
  'warehouse', 'dispatch', 'ratings',
];
const people = ['Alice', 'Bob', 'Carmen', 'Dmitri', 'Erin', 'Farid', 'Grace', 'Hiro', 'Ines', 'Jonas', 'Kemal', 'Lena', 'Mateo', 'Nadia', 'Omar', 'Priya'];
const envs = ['production', 'staging', 'qa'];
const tools = ['Jenkins', 'GitHub Actions', 'Argo', 'Grafana', 'Datadog', 'Loki', 'LaunchDarkly', 'Buildkite', 'CircleCI', 'Kibana'];
const days = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'March 3', 'April 17', 'May 9', 'June 21', 'July 30'];
/** Notes a team also writes, which share the team's words without answering the questions. */
const chatter = [
  '{person} paired with {other} on the {svc} {noun} this morning',
  'Reminder: the {svc} standup moves to {day} this week',
  '{person} will look at the {svc} {noun} ticket after lunch',
  'Open question from {person}: should {svc} share its {noun} with {svc2}?',
  '{person} wrote a draft about {svc2} {noun} and {svc} {noun2}',
  'The {svc} team demoed the new {noun} screen on {day}',
  '{person} is out on {day}; {other} covers {svc} reviews',
  'Retro notes for {svc}: fewer meetings, more docs on {noun}',
  '{svc} and {svc2} both need a look at their {noun} before the release',
  'Thanks {person} for the help with {svc} {noun2} yesterday',
];
const nouns = ['deploy', 'logs', 'tests', 'cache', 'alerts', 'queue', 'dashboard', 'config', 'backup', 'build', 'schema', 'runbook', 'billing', 'pods', 'flags', 'emails', 'database', 'pipeline', 'rollback', 'retry'];

const pick = <T>(random: Random, list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;

function fill(template: string, slots: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => slots[name] ?? whole);
}

/**
 * A software team's memories: one fact per service and topic, among chatter that shares their
 * words, and one question per chosen fact in one of three kinds. Deterministic for a seed. The
 * `team` set splits its topics into a tuning and a held-out half; `team-apart`, of topics written
 * apart from the search code and its tables (team-topics-apart.ts), is held out whole.
 */
export function generateTeamSet(name: 'team' | 'team-apart' = 'team', questionCount = 600, chatterCount = 2_300): LabelledSet {
  const topics: TeamTopic[] = name === 'team' ? teamTopics : teamTopicsApart;
  const records: LabelledSet['records'] = [];
  const facts: Array<{ key: string; topic: number; slots: Record<string, string> }> = [];
  services.forEach((svc, s) => {
    topics.forEach((topic, t) => {
      const random = randomFor('team-fact', s * 100 + t);
      const slots = {
        svc,
        person: pick(random, people),
        env: pick(random, envs),
        tool: pick(random, tools),
        day: pick(random, days),
        n: String(2 + Math.floor(random() * 60)),
      };
      const key = `fact-${svc}-${t}`;
      records.push({ key, workspace: 'team', content: fill(topic.record, slots) });
      facts.push({ key, topic: t, slots });
    });
  });
  for (let i = 0; i < chatterCount; i++) {
    const random = randomFor('team-chatter', i);
    const slots = {
      svc: pick(random, services),
      svc2: pick(random, services),
      person: pick(random, people),
      other: pick(random, people),
      day: pick(random, days),
      noun: pick(random, nouns),
      noun2: pick(random, nouns),
    };
    records.push({ key: `chatter-${i}`, workspace: 'team', content: fill(pick(random, chatter), slots) });
  }
  shuffle(records, randomFor('team-order', 0));
  const kinds = ['same', 'forms', 'para'] as const;
  const order = [...facts];
  shuffle(order, randomFor('team-questions', 0));
  const questions = order.slice(0, questionCount).map((fact, i) => {
    const kind = kinds[i % 3] ?? 'same';
    const topic = topics[fact.topic];
    return {
      workspace: 'team',
      text: fill(topic?.[kind] ?? '', fact.slots),
      kind,
      answers: [fact.key],
      half: name === 'team' && fact.topic % 2 === 0 ? ('tuning' as const) : ('held-out' as const),
    };
  });
  return { name, records, questions };
}

export function shuffle<T>(list: T[], random: Random): void {
  for (let i = list.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [list[i], list[j]] = [list[j] as T, list[i] as T];
  }
}
