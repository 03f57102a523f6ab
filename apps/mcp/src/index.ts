export { buildMcpApp, type McpAppOptions } from './mcp-app.ts';
export { loadMcpConfig, mcpEnvShape, type McpConfig } from './config.ts';
export { instrumentMcp } from './request-metrics.ts';
