import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { fitModel } from '../../src/guard/injection/fit.ts';
import { toWeightsFile, WEIGHTS_FILE } from '../../src/guard/injection/model.ts';
import { trainingExamples } from '../../scripts/guard-model/corpus.ts';

describe('committed planted-instruction weights', () => {
  it('are what `pnpm --filter @mmw/core run fit-guard` fits from the committed corpus and written sets', () => {
    const fitted = toWeightsFile(fitModel(trainingExamples()));
    const committed: unknown = JSON.parse(readFileSync(WEIGHTS_FILE, 'utf8'));
    expect(committed).toEqual(fitted);
    // A fit takes about half a minute alone; CI runs test files side by side.
  }, 300_000);
});
