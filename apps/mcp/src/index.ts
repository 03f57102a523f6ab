export { buildMcpApp, type McpAppOptions } from './mcp-app.ts';
