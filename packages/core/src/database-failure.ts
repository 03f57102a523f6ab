import { CommitUnknownError, isTransientFailure, NoConnectionError } from '@mmw/db';
import { AppError, isAppError } from './errors.ts';

const overloaded = () =>
  new AppError('overloaded', 'the service is busy, try again shortly', { retryAfterSeconds: 1 });

/**
 * A database failure as the AppError a caller can act on, or undefined for anything else (which
 * stays an internal error). The one place that reads the database's failures for every door.
 */
export function databaseFailure(error: unknown): AppError | undefined {
  if (isAppError(error)) return error;
  if (error instanceof NoConnectionError || isTransientFailure(error)) return overloaded();
  if (error instanceof CommitUnknownError) {
    return new AppError(
      'unavailable',
      'the database did not confirm the write: the record may have been stored. Search for it before sending it again, or send it again with the same X-Idempotency-Key',
    );
  }
  return undefined;
}

/** Rethrows a database failure as its AppError; anything else as it is. */
export function rethrowAsAppError(error: unknown): never {
  throw databaseFailure(error) ?? error;
}
