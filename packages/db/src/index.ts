export * as schema from './schema/index.ts';
export * from './schema/index.ts';
export * from './client.ts';
export * from './migrate.ts';
export * from './open.ts';
export * from './embedded-lock.ts';
