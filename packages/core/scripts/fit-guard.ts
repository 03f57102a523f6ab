/**
 * Fits the planted-instruction model on the whole committed corpus and writes its weights to
 * src/guard/injection/weights.json. With `--evaluate`, first prints the leave-one-style-out table.
 */
import { writeFileSync } from 'node:fs';
import { fitModel } from '../src/guard/injection/fit.ts';
import { toWeightsFile, WEIGHTS_FILE } from '../src/guard/injection/model.ts';
import { loadCorpus, toExample } from './guard-model/corpus.ts';
import { formatResult, leaveOneStyleOut, sweep } from './guard-model/leave-one-style-out.ts';

const items = loadCorpus();
if (process.argv.includes('--evaluate')) {
  const started = Date.now();
  const result = leaveOneStyleOut(items);
  console.log(formatResult(result));
  if (process.argv.includes('--sweep')) console.log(sweep(result));
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
const weights = toWeightsFile(fitModel(items.map(toExample)));
writeFileSync(WEIGHTS_FILE, `${JSON.stringify(weights, null, 1)}\n`);
console.log(`weights for ${items.length} items → ${WEIGHTS_FILE.pathname}`);
