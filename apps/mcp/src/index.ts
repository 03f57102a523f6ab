export { buildMcpApp, type McpAppOptions } from './mcp-app.ts';
export { instrumentMcp } from './request-metrics.ts';
