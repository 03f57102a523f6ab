/**
 * Tracing is on when the standard OpenTelemetry variables name somewhere to send spans, and not
 * switched off (OTEL_SDK_DISABLED). The SDK reads the rest of OTEL_* itself (protocol, headers,
 * sampler, service name, resource attributes).
 */
export function tracingEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  if (env.OTEL_SDK_DISABLED?.trim().toLowerCase() === 'true') return false;
  const exporter = env.OTEL_TRACES_EXPORTER?.trim();
  if (exporter !== undefined && exporter !== '') return exporter !== 'none';
  return Boolean(env.OTEL_EXPORTER_OTLP_ENDPOINT?.trim() || env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT?.trim());
}

/** The service name the process gives its spans unless OTEL_SERVICE_NAME gives another. */
export function tracingServiceName(fallback: string, env: NodeJS.ProcessEnv = process.env): string {
  return env.OTEL_SERVICE_NAME?.trim() || fallback;
}
