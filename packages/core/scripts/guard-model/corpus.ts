/**
 * Reads what the planted-instruction model is fitted on: the committed corpus (generated from
 * templates, labelled by style) and the sets written apart from the Guard (data/written-apart/), and
 * turns items into the model's examples.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import type { Example } from '../../src/guard/injection/fit.ts';
import { windowFeatures } from '../../src/guard/injection/verdict.ts';

export const CORPUS_FILE = new URL('../../data/injection-corpus.jsonl', import.meta.url);
const WRITTEN_APART_DIR = new URL('../../data/written-apart/', import.meta.url);
/** Sets written apart and kept out of every fit: the next change is measured on them. */
const HELD_APART_DIR = new URL('../../data/held-apart/', import.meta.url);

const itemSchema = z.object({
  id: z.string(),
  label: z.enum(['attack', 'legit']),
  style: z.string(),
  lang: z.string(),
  text: z.string(),
});
export type CorpusItem = z.infer<typeof itemSchema>;

const writtenSetSchema = z.object({ attack: z.array(z.string()), legit: z.array(z.string()) });
export interface WrittenSet extends z.infer<typeof writtenSetSchema> {
  /** The file's number: the order the sets were written in. */
  readonly name: string;
}

export function loadCorpus(): CorpusItem[] {
  return readFileSync(CORPUS_FILE, 'utf8')
    .split('\n')
    .filter((line) => line.trim() !== '')
    .map((line) => itemSchema.parse(JSON.parse(line)));
}

export function loadWrittenApart(dir: URL = WRITTEN_APART_DIR): WrittenSet[] {
  return readdirSync(dir)
    .filter((file) => file.endsWith('.json'))
    .map((file) => file.replace(/\.json$/, ''))
    .sort((a, b) => Number(a) - Number(b))
    .map((name) => ({ name, ...writtenSetSchema.parse(JSON.parse(readFileSync(new URL(`${name}.json`, dir), 'utf8'))) }));
}

export function loadHeldApart(): WrittenSet[] {
  return loadWrittenApart(HELD_APART_DIR);
}

export function toExample(item: CorpusItem): Example & { style: string } {
  return { features: windowFeatures(item.text), attack: item.label === 'attack', style: item.style };
}

export function writtenExamples(set: WrittenSet): Example[] {
  const example = (text: string, attack: boolean): Example => ({ features: windowFeatures(text), attack });
  return [...set.attack.map((text) => example(text, true)), ...set.legit.map((text) => example(text, false))];
}

/** Everything the committed weights are fitted on. */
export function trainingExamples(): Example[] {
  return [...loadCorpus().map(toExample), ...loadWrittenApart().flatMap(writtenExamples)];
}
