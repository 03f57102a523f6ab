/**
 * Fits the planted-instruction model on the committed corpus and the sets written apart, and writes
 * its weights to src/guard/injection/weights.json. With `--evaluate`, first prints the
 * leave-one-style-out table and the table of runs of sets left out.
 */
import { writeFileSync } from 'node:fs';
import { fitModel } from '../src/guard/injection/fit.ts';
import { toWeightsFile, WEIGHTS_FILE } from '../src/guard/injection/model.ts';
import { loadCorpus, loadWrittenApart, trainingExamples } from './guard-model/corpus.ts';
import { formatResult, formatSets, leaveBlocksOfSetsOut, leaveOneStyleOut, sweep } from './guard-model/leave-one-style-out.ts';

if (process.argv.includes('--evaluate')) {
  const started = Date.now();
  const items = loadCorpus();
  const written = loadWrittenApart();
  console.log(formatSets(leaveBlocksOfSetsOut(items, written)));
  const result = leaveOneStyleOut(items, written);
  console.log(formatResult(result));
  if (process.argv.includes('--sweep')) console.log(sweep(result));
  console.log(`(${((Date.now() - started) / 1000).toFixed(1)} s)`);
}
const examples = trainingExamples();
const weights = toWeightsFile(fitModel(examples));
writeFileSync(WEIGHTS_FILE, `${JSON.stringify(weights, null, 1)}\n`);
console.log(`weights for ${examples.length} items → ${WEIGHTS_FILE.pathname}`);
