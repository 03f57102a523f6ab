/**
 * Writes the labelled sets of `pnpm bench:recall` to bench/data/ (committed, so that every run and
 * every reader measures the same questions): `tsx src/recall/generate.ts`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { generateConversationSet } from './conversation-set.ts';
import { generateTeamSet } from './team-set.ts';

const folder = new URL('../../data/', import.meta.url);
mkdirSync(folder, { recursive: true });
for (const set of [generateTeamSet(), generateTeamSet('team-apart'), generateConversationSet()]) {
  writeFileSync(new URL(`${set.name}-set.json`, folder), `${JSON.stringify(set, null, 1)}\n`);
  const halves = set.questions.filter((q) => q.half === 'held-out').length;
  process.stdout.write(`${set.name}: ${set.records.length} records, ${set.questions.length} questions (${halves} held out)\n`);
}
