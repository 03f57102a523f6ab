/** `pnpm bench:recall`: the recall table of the labelled sets (held-out halves) and its latency. */
import { printRecall } from './recall-report.ts';

const serverUrl = process.env.DATABASE_URL;
if (!serverUrl) {
  process.stderr.write('DATABASE_URL is required: the benchmark creates its own database beside it.\n');
  process.exit(1);
}
await printRecall(serverUrl);
