/**
 * The fitted planted-instruction model: weights read from the committed weights.json (written by
 * `pnpm --filter @mmw/core run fit-guard`), and the score of one window of text.
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { FEATURE_COUNT, HASH_BITS, STRUCTURAL_COUNT, STRUCTURAL_NAMES, featuresOf, type Features } from './features.ts';
import { dot, sigmoid, type FittedModel } from './fit.ts';

export const WEIGHTS_FILE = new URL('./weights.json', import.meta.url);

const weightsSchema = z.object({
  hashBits: z.literal(HASH_BITS),
  bias: z.number(),
  structural: z.record(z.string(), z.number()),
  /** Hashed n-gram buckets with a weight, by bucket number; the rest weigh nothing. */
  ngrams: z.record(z.string(), z.number()),
});
export type WeightsFile = z.infer<typeof weightsSchema>;

/** Weights are rounded so the file stays small and diffs stay readable. */
const DIGITS = 4;

export function toWeightsFile(model: FittedModel): WeightsFile {
  const round = (x: number) => Number(x.toFixed(DIGITS));
  const structural: Record<string, number> = {};
  STRUCTURAL_NAMES.forEach((name, index) => {
    structural[name] = round(model.weights[index] ?? 0);
  });
  const ngrams: Record<string, number> = {};
  for (let i = STRUCTURAL_COUNT; i < FEATURE_COUNT; i += 1) {
    const weight = round(model.weights[i] ?? 0);
    if (weight !== 0) ngrams[String(i - STRUCTURAL_COUNT)] = weight;
  }
  return { hashBits: HASH_BITS, bias: round(model.bias), structural, ngrams };
}

export function fromWeightsFile(file: WeightsFile): FittedModel {
  const weights = new Float64Array(FEATURE_COUNT);
  STRUCTURAL_NAMES.forEach((name, index) => {
    weights[index] = file.structural[name] ?? 0;
  });
  for (const [bucket, weight] of Object.entries(file.ngrams)) weights[STRUCTURAL_COUNT + Number(bucket)] = weight;
  return { bias: file.bias, weights };
}

let committed: FittedModel | undefined;

/** The committed model, read once. */
export function committedModel(): FittedModel {
  committed ??= fromWeightsFile(weightsSchema.parse(JSON.parse(readFileSync(WEIGHTS_FILE, 'utf8'))));
  return committed;
}

export interface WindowScore {
  readonly score: number;
  readonly features: Features;
}

export function scoreWindow(model: FittedModel, text: string, unseen = false): WindowScore {
  const features = featuresOf(text, unseen);
  return { score: sigmoid(model.bias + dot(model.weights, features)), features };
}
