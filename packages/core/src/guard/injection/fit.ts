/**
 * Fits the planted-instruction model: L2-regularised logistic regression by full-batch gradient
 * descent with Adam steps, classes weighted equally. Deterministic (no sampling), so the committed
 * weights are reproducible. One light L2 penalty for every weight, behaviour signals and hashed
 * n-grams alike: with thousands of texts written apart in over fifty languages in the fit, the
 * n-grams carry wording that holds on text written elsewhere (decision 0064).
 */
import { FEATURE_COUNT, STRUCTURAL_NAMES, type Features } from './features.ts';

export interface Example {
  readonly features: readonly Features[];
  readonly attack: boolean;
}

export interface FittedModel {
  readonly bias: number;
  readonly weights: Float64Array;
}

export const FIT_SETTINGS = {
  iterations: 200,
  learningRate: 0.05,
  l2: 0.0007,
} as const;

/** The examples as one flat sparse matrix (CSR): rows are windows, each labelled and weighted. */
interface Matrix {
  starts: Int32Array;
  indexes: Int32Array;
  values: Float64Array;
  labels: Float64Array;
  rowWeights: Float64Array;
}

/**
 * Each example is one or more windows of text (see verdict.ts); an example's windows share its
 * label and its weight, and every class weighs the same in total.
 */
function toMatrix(examples: readonly Example[]): Matrix {
  const rows = examples.flatMap((example) => example.features.map((features) => ({ features, example })));
  const attacks = examples.filter((example) => example.attack).length;
  const classWeight = (attack: boolean) =>
    examples.length / (2 * Math.max(attack ? attacks : examples.length - attacks, 1));
  const nonZeros = rows.reduce((sum, row) => sum + row.features.indexes.length, 0);
  const matrix: Matrix = {
    starts: new Int32Array(rows.length + 1),
    indexes: new Int32Array(nonZeros),
    values: new Float64Array(nonZeros),
    labels: new Float64Array(rows.length),
    rowWeights: new Float64Array(rows.length),
  };
  let at = 0;
  rows.forEach(({ features, example }, row) => {
    matrix.starts[row] = at;
    matrix.indexes.set(features.indexes, at);
    matrix.values.set(features.values, at);
    at += features.indexes.length;
    matrix.labels[row] = example.attack ? 1 : 0;
    matrix.rowWeights[row] = classWeight(example.attack) / example.features.length;
  });
  matrix.starts[rows.length] = at;
  return matrix;
}

export function fitModel(examples: readonly Example[], settings = FIT_SETTINGS): FittedModel {
  const { starts, indexes, values, labels, rowWeights } = toMatrix(examples);
  const size = FEATURE_COUNT + 1; // the last slot is the bias
  const params = new Float64Array(size);
  const gradient = new Float64Array(size);
  const m = new Float64Array(size);
  const v = new Float64Array(size);
  const l2 = new Float64Array(size).fill(settings.l2);
  l2[FEATURE_COUNT] = 0;
  const scale = 1 / examples.length;
  const rows = labels.length;
  for (let step = 1; step <= settings.iterations; step += 1) {
    gradient.fill(0);
    for (let row = 0; row < rows; row += 1) {
      const end = starts[row + 1] ?? 0;
      let z = params[FEATURE_COUNT] ?? 0;
      for (let k = starts[row] ?? 0; k < end; k += 1) z += (params[indexes[k] ?? 0] ?? 0) * (values[k] ?? 0);
      const error = (1 / (1 + Math.exp(-z)) - (labels[row] ?? 0)) * (rowWeights[row] ?? 0) * scale;
      gradient[FEATURE_COUNT] = (gradient[FEATURE_COUNT] ?? 0) + error;
      for (let k = starts[row] ?? 0; k < end; k += 1) {
        const index = indexes[k] ?? 0;
        gradient[index] = (gradient[index] ?? 0) + error * (values[k] ?? 0);
      }
    }
    adamStep(params, gradient, m, v, l2, step, settings.learningRate);
    for (const index of AT_LEAST_ZERO) if ((params[index] ?? 0) < 0) params[index] = 0;
  }
  return { bias: params[FEATURE_COUNT] ?? 0, weights: params.subarray(0, FEATURE_COUNT) };
}

/**
 * The structural features that describe text reporting or handing over rather than doing: their
 * weights are free. Every other one names something an attack does, and its weight is kept at zero
 * or above, so that adding a behaviour to a text can never lower its score.
 */
const REPORTING: ReadonlySet<string> = new Set(['discussion', 'quoted', 'quotedBehaviour', 'defer', 'dialogue']);
const AT_LEAST_ZERO = STRUCTURAL_NAMES.flatMap((name, index) => (REPORTING.has(name) ? [] : [index]));

const BETA1 = 0.9;
const BETA2 = 0.999;

function adamStep(
  params: Float64Array,
  gradient: Float64Array,
  m: Float64Array,
  v: Float64Array,
  l2: Float64Array,
  step: number,
  learningRate: number,
): void {
  const rate = (learningRate * Math.sqrt(1 - BETA2 ** step)) / (1 - BETA1 ** step);
  for (let i = 0; i < params.length; i += 1) {
    const w = params[i] ?? 0;
    const g = (gradient[i] ?? 0) + (l2[i] ?? 0) * w;
    if (g === 0) continue;
    const mi = BETA1 * (m[i] ?? 0) + (1 - BETA1) * g;
    const vi = BETA2 * (v[i] ?? 0) + (1 - BETA2) * g * g;
    m[i] = mi;
    v[i] = vi;
    params[i] = w - (rate * mi) / (Math.sqrt(vi) + 1e-8);
  }
}

export function dot(weights: ArrayLike<number>, features: Features): number {
  let sum = 0;
  for (let k = 0; k < features.indexes.length; k += 1) {
    sum += (weights[features.indexes[k] ?? 0] ?? 0) * (features.values[k] ?? 0);
  }
  return sum;
}

export function sigmoid(x: number): number {
  return 1 / (1 + Math.exp(-x));
}
