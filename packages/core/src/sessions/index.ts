export * from './session-batch.ts';
export * from './upload-sessions.ts';
export * from './search-sessions.ts';
export * from './manage-sessions.ts';
