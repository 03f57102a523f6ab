import { startTracing } from '@mmw/core/tracing';

// Tracing first (when OTEL_* asks for it), so that what it traces loads after its instrumentation.
await startTracing('mmw');
await import('./serve.ts');
