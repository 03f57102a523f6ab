/** Reads the committed planted-instruction corpus and turns items into the model's examples. */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Example } from '../../src/guard/injection/fit.ts';
import { windowFeatures } from '../../src/guard/injection/verdict.ts';

export const CORPUS_FILE = new URL('../../data/injection-corpus.jsonl', import.meta.url);

const itemSchema = z.object({
  id: z.string(),
  label: z.enum(['attack', 'legit']),
  style: z.string(),
  lang: z.string(),
  text: z.string(),
});
export type CorpusItem = z.infer<typeof itemSchema>;

export function loadCorpus(): CorpusItem[] {
  return readFileSync(CORPUS_FILE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => itemSchema.parse(JSON.parse(line)));
}

export function toExample(item: CorpusItem): Example & { style: string } {
  return { features: windowFeatures(item.text), attack: item.label === 'attack', style: item.style };
}
