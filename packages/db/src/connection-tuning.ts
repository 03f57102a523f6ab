import { createHash } from 'node:crypto';
import type pg from 'pg';
import { StatementPipeline, type PipelinePart } from './statement-pipeline.ts';

/** At most this many statement texts are prepared per pool; texts past it run unnamed. */
const MAX_STATEMENTS = 1_000;

/** The statement every transaction of withTenant and its kin starts with (see client.ts). */
const SCOPE_STATEMENT = /^select set_config\('mmw\.[a-z_]+', \$1, true\)$/;

type Query = (...args: unknown[]) => Promise<unknown>;

/** The query node-postgres's client is reading answers for (in pipeline mode, the oldest sent). */
interface ActiveQuery {
  _getActiveQuery(): unknown;
}

/**
 * Marks a statement whose answer nobody reads: inside a transaction of the pool it is held and sent
 * with the transaction's commit, in the same round trip (see deferredSqlOn in client.ts).
 */
export const AT_COMMIT = '/* mmw:at-commit */ ';

/**
 * Marks a statement PostgreSQL plans on every run (it runs unnamed): one whose best plan depends on
 * its values or on how big a table is now. A generic plan made while a table was nearly empty can
 * scan all of it once it is not, and stays cached for the connection's life.
 */
export const PLANNED_EACH_TIME = '/* mmw:planned-each-time */ ';

type Held = PipelinePart & { kind: 'begin' | 'scope' | 'deferred' };

/**
 * Three changes to how the pool's connections talk to PostgreSQL, each saving work on every tool call
 * (docs/decisions/0008-statements-and-round-trips.md, 0009-pipelined-transactions.md):
 *
 * - Parameterised statements run as named prepared statements, so PostgreSQL parses each text once
 *   per connection and, after a few runs, reuses its plan instead of planning every call. Reads of
 *   records stay unnamed (see plannedEachTime).
 * - A transaction's `begin`, and the statement that sets its scope (the tenant, the key hash, ...),
 *   are held back and written with the transaction's first real statement, in one round trip.
 * - Statements marked AT_COMMIT are held back and written with the `commit`, in one round trip; when
 *   one fails, the commit does not happen and the transaction rolls back.
 */
export function tuneConnections(pool: pg.Pool): void {
  const names = new Map<string, string | null>();
  const nameOf = (text: string): string | null => {
    const known = names.get(text);
    if (known !== undefined) return known;
    if (names.size >= MAX_STATEMENTS) return null;
    const name = plannedEachTime(text)
      ? null
      : `mmw_${createHash('sha256').update(text).digest('base64url').slice(0, 24)}`;
    names.set(text, name);
    return name;
  };

  pool.on('connect', (client) => {
    const send = client.query.bind(client) as Query;
    // Statements not yet sent, in order; a transaction began when its `begin` is among them or sent.
    let held: Held[] = [];
    let inTransaction = false;
    const part = (kind: Held['kind'], text: string, values: unknown[]): Held => ({
      kind,
      text,
      values,
      name: nameOf(text),
    });
    const run = (config: unknown, values: unknown, callback: unknown): unknown => {
      const named = withName(config, values, nameOf);
      return callback === undefined ? send(named, values) : send(named, values, callback);
    };
    const pipeline = (parts: PipelinePart[], config: unknown): Promise<unknown> =>
      new Promise((resolve, reject) => {
        const options =
          typeof config === 'object' && config !== null
            ? (config as { rowMode?: unknown; types?: unknown })
            : {};
        const query = new StatementPipeline(
          parts,
          { rowMode: options.rowMode, types: options.types },
          (error, results) =>
            error ? reject(error) : resolve(Array.isArray(results) ? (results.at(-1) as unknown) : results),
          (self) => (client as unknown as ActiveQuery)._getActiveQuery() === self,
        );
        void send(query);
      });
    const takeHeld = () => {
      const parts = held;
      held = [];
      return parts;
    };

    client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      if (callback !== undefined || typeof values === 'function') {
        // A callback-style statement (pg-pool's own) after held statements: the client runs its
        // queue in order, so they are queued first.
        if (held.length > 0) void pipeline(takeHeld(), undefined).catch(() => undefined);
        return run(config, values, callback);
      }
      const text = textOf(config);
      const given = valuesOf(config) ?? (Array.isArray(values) ? (values as unknown[]) : []);
      if (text === 'begin' && !inTransaction) {
        inTransaction = true;
        held = [part('begin', text, [])];
        return Promise.resolve(emptyResult('BEGIN'));
      }
      if (
        text !== undefined &&
        held.length === 1 &&
        held[0]?.kind === 'begin' &&
        SCOPE_STATEMENT.test(text) &&
        typeof given[0] === 'string'
      ) {
        held.push(part('scope', text, given));
        return Promise.resolve(scopeResult(given[0], config));
      }
      if (text !== undefined && inTransaction && text.startsWith(AT_COMMIT)) {
        held.push(part('deferred', text, given));
        return Promise.resolve(emptyResult('SELECT'));
      }
      if (text === 'commit' || text === 'rollback') {
        inTransaction = false;
        const parts = takeHeld();
        const begun = parts[0]?.kind !== 'begin';
        // A transaction that ends before its first statement never needed to begin.
        if (text === 'rollback')
          return begun ? run(config, values, callback) : Promise.resolve(emptyResult('ROLLBACK'));
        if (!parts.some((held) => held.kind === 'deferred'))
          return begun ? run(config, values, callback) : Promise.resolve(emptyResult('COMMIT'));
        return pipeline([...parts, { text, values: [], name: nameOf(text) }], config);
      }
      if (held.length === 0) return run(config, values, callback);
      if (text === undefined) {
        void pipeline(takeHeld(), undefined).catch(() => undefined);
        return run(config, values, callback);
      }
      return pipeline(
        [...takeHeld(), { text, values: given, name: givenName(config) ?? nameOf(text) }],
        config,
      );
    }) as typeof client.query;
  });
}

/** A read of records picked by their ids: the primary key finds them, whatever the values. */
const RECORDS_BY_ID = /from "records" where \("records"\."id" (=|in) /;

/**
 * Reads of records stay unnamed: their best plan depends on the words searched and on the size of
 * the workspace (ten rows or 200,000), which a generic plan does not know. So do statements marked
 * PLANNED_EACH_TIME. A read of records by their ids is prepared: its plan does not depend on the
 * values, and planning it (row-level security, the visibility rules, a dozen indexes to weigh) took
 * longer than running it, on every search and archivist job.
 */
function plannedEachTime(text: string): boolean {
  return (
    text.includes(PLANNED_EACH_TIME) ||
    text.includes('@@') ||
    (/^\s*select\b/i.test(text) && text.includes('"records"') && !RECORDS_BY_ID.test(text))
  );
}

function emptyResult(command: string) {
  return { command, rowCount: null, rows: [], fields: [], oid: null };
}

/** What `select set_config(name, value, true)` answers: the value, as a row or as an array. */
function scopeResult(value: string, config: unknown) {
  const arrays =
    typeof config === 'object' && config !== null && 'rowMode' in config && config.rowMode === 'array';
  return {
    command: 'SELECT',
    rowCount: 1,
    rows: [arrays ? [value] : { set_config: value }],
    fields: [],
    oid: null,
  };
}

function textOf(config: unknown): string | undefined {
  if (typeof config === 'string') return config;
  if (typeof config === 'object' && config !== null && 'text' in config && typeof config.text === 'string')
    return config.text;
  return undefined;
}

function givenName(config: unknown): string | undefined {
  if (typeof config === 'object' && config !== null && 'name' in config && typeof config.name === 'string')
    return config.name;
  return undefined;
}

function valuesOf(config: unknown): unknown[] | undefined {
  if (typeof config === 'object' && config !== null && 'values' in config && Array.isArray(config.values))
    return config.values as unknown[];
  return undefined;
}

function withName(config: unknown, values: unknown, nameOf: (text: string) => string | null): unknown {
  const text = textOf(config);
  const given = valuesOf(config) ?? values;
  if (text === undefined || !Array.isArray(given) || given.length === 0) return config;
  if (typeof config === 'object' && config !== null && 'name' in config && config.name !== undefined)
    return config;
  const name = nameOf(text);
  if (name === null) return config;
  return typeof config === 'string' ? { text, name } : { ...(config as object), name };
}
