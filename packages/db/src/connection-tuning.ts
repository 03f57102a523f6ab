import { createHash } from 'node:crypto';
import type pg from 'pg';

/** At most this many statement texts are prepared per pool; texts past it run unnamed. */
const MAX_STATEMENTS = 1_000;

/** The statement every transaction of withTenant and its kin starts with (see client.ts). */
const SCOPE_STATEMENT = /^select set_config\('mmw\.[a-z_]+', \$1, true\)$/;

type Query = (...args: unknown[]) => Promise<unknown>;

/**
 * Two changes to how the pool's connections talk to PostgreSQL, each saving work on every tool call
 * (docs/decisions/0008-statements-and-round-trips.md):
 *
 * - Parameterised statements run as named prepared statements, so PostgreSQL parses each text once
 *   per connection and, after a few runs, reuses its plan instead of planning every call. Reads of
 *   records stay unnamed (see plannedEachTime).
 * - A transaction's `begin` is held back and sent with the statement that sets its scope (the tenant,
 *   the key hash, ...) in one round trip; any other first statement gets the `begin` sent before it.
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
    let beginHeld = false;
    const run = (config: unknown, values: unknown, callback: unknown): unknown => {
      const named = withName(config, values, nameOf);
      return callback === undefined ? send(named, values) : send(named, values, callback);
    };
    client.query = ((config: unknown, values?: unknown, callback?: unknown) => {
      if (callback !== undefined || typeof values === 'function') {
        // A callback-style statement (pg-pool's own) after a held begin: the client runs its queue in
        // order, so the begin is queued first.
        if (beginHeld) {
          beginHeld = false;
          void send('begin').catch(() => undefined);
        }
        return run(config, values, callback);
      }
      const text = textOf(config);
      if (text === 'begin' && !beginHeld) {
        beginHeld = true;
        return Promise.resolve(emptyResult('BEGIN'));
      }
      if (!beginHeld) return run(config, values, callback);
      beginHeld = false;
      const scope: unknown = Array.isArray(values) ? (values as unknown[])[0] : valuesOf(config)?.[0];
      if (text !== undefined && SCOPE_STATEMENT.test(text) && typeof scope === 'string') {
        const literal = client.escapeLiteral(scope);
        return send(`begin; ${text.replace('$1', literal)}`).then((results) =>
          Array.isArray(results) ? (results.at(-1) as unknown) : results,
        );
      }
      // A transaction that ends before its first statement never needed to begin.
      if (text === 'commit' || text === 'rollback') return Promise.resolve(emptyResult(text.toUpperCase()));
      return send('begin').then(() => run(config, values, callback));
    }) as typeof client.query;
  });
}

/**
 * Reads of records stay unnamed: their best plan depends on the words searched and on the size of
 * the workspace (ten rows or 200,000), which a generic plan does not know.
 */
function plannedEachTime(text: string): boolean {
  return text.includes('@@') || (/^\s*select\b/i.test(text) && text.includes('"records"'));
}

function emptyResult(command: string) {
  return { command, rowCount: null, rows: [], fields: [], oid: null };
}

function textOf(config: unknown): string | undefined {
  if (typeof config === 'string') return config;
  if (typeof config === 'object' && config !== null && 'text' in config && typeof config.text === 'string')
    return config.text;
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
