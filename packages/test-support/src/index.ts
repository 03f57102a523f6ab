export * from './test-database.ts';
export * from './mcp-client.ts';
export * from './env.ts';
export * from './child-process.ts';
export * from './model-stub.ts';
export * from './stripe-stub.ts';
export * from './stripe-webhooks.ts';
export * from './commit-dropping-proxy.ts';
