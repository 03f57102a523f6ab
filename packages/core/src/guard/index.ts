/**
 * Memory Guard: secrets in any field of a record are replaced with `[REDACTED:<kind>]`, and a
 * record that reads as an attempt to instruct the agent that later reads it is rejected.
 */
export { guardRecord, checkRecord, type GuardedRecord } from './guard-record.ts';
export { createGuardPool, type GuardPool, type GuardPoolOptions } from './guard-pool.ts';
export { createModelJudge, type InjectionJudge } from './injection/model-judge.ts';
export { detectPlantedInstruction, type PlantedInstruction } from './planted-instructions.ts';
export { redactSecrets, type RedactionResult } from './redact-secrets.ts';
