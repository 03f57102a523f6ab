import { register } from 'node:module';
import { tracingEnabled, tracingServiceName } from './tracing-config.ts';

export { tracingEnabled } from './tracing-config.ts';

interface Tracer {
  shutdown(): Promise<void>;
}
let tracer: Tracer | undefined;

/**
 * OpenTelemetry tracing of HTTP requests and PostgreSQL statements, when OTEL_* asks for it (see
 * tracing-config.ts); otherwise nothing is loaded. A process calls it first, then imports the rest of
 * itself, so the modules to trace load after their instrumentation. Spans carry the door a request
 * came through and statement texts with their $n placeholders, never values, bodies or queries.
 */
export async function startTracing(serviceName: string): Promise<void> {
  if (tracer || !tracingEnabled()) return;
  // ES modules are instrumented through the loader hook the instrumentation package ships.
  register('@opentelemetry/instrumentation/hook.mjs', import.meta.url);
  const [{ NodeSDK }, { HttpInstrumentation }, { PgInstrumentation }] = await Promise.all([
    import('@opentelemetry/sdk-node'),
    import('@opentelemetry/instrumentation-http'),
    import('@opentelemetry/instrumentation-pg'),
  ]);
  const sdk = new NodeSDK({
    serviceName: tracingServiceName(serviceName),
    instrumentations: [
      new HttpInstrumentation({
        ignoreIncomingRequestHook: (request) => ['/healthz', '/readyz'].includes(spanPath(request.url)),
        // A link's token or a query's input never reaches a span: the path is cut to what names the door.
        startIncomingSpanHook: (request) => ({ 'url.path': spanPath(request.url), 'url.query': undefined }),
      }),
      new PgInstrumentation({ enhancedDatabaseReporting: false }),
    ],
  });
  sdk.start();
  tracer = sdk;
}

/** The part of a request's path a span names: its first segment, and the procedure of a tRPC call. */
export function spanPath(url = '/'): string {
  const [first = '', second] = (url.split('?')[0] ?? '').split('/').slice(1);
  return first === 'trpc' && second ? `/trpc/${second}` : `/${first}`;
}

/** Sends the spans still buffered; the last step of a shutdown. Bounded by the SDK's export timeout. */
export async function stopTracing(): Promise<void> {
  const current = tracer;
  tracer = undefined;
  await current?.shutdown();
}
