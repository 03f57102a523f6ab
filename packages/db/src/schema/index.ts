export * from './tenancy.ts';
export * from './memory.ts';
export * from './operations.ts';
export * from './dashboard.ts';
export * from './billing.ts';
export * from './erasure-and-two-factor.ts';
export * from './sessions.ts';
export * from './portability.ts';
