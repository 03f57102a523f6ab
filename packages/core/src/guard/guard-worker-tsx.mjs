// The guard worker when the server runs from its TypeScript sources: tsx's loader, registered on
// the main thread by `node --import tsx`, does not reach worker threads, so the worker registers it.
import { register } from 'tsx/esm/api';

register();
const { default: guardInWorker } = await import('./guard-worker.ts');
export default guardInWorker;
