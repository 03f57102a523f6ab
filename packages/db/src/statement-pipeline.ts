import pg from 'pg';

/** One statement of a pipeline, as node-postgres would have sent it alone. */
export interface PipelinePart {
  text: string;
  /** Its prepared statement's name, or null to run it unnamed. */
  name: string | null;
  values: unknown[];
}

/** What a pipeline needs of node-postgres's connection; the same calls its own queries make. */
interface ProtocolConnection {
  parsedStatements: Record<string, string>;
  submittedNamedStatements: Record<string, string>;
  stream: { cork?: () => void; uncork?: () => void };
  parse(message: { text: string; name: string }): void;
  bind(message: { portal: string; statement: string; values: unknown[] }): void;
  describe(message: { type: 'P'; name: string }): void;
  execute(message: { portal: string }): void;
  sync(): void;
  on(event: 'parseComplete', listener: () => void): void;
  removeListener(event: 'parseComplete', listener: () => void): void;
}

const { prepareValue } = (pg as unknown as { utils: { prepareValue: (value: unknown) => unknown } }).utils;

/**
 * Several statements written to PostgreSQL at once, answered in one round trip: each is parsed
 * (once per connection when it has a name), bound and executed, and a single Sync closes them all.
 * The server runs them in order and stops at the first error; the query's results are one per
 * statement. node-postgres's own query object collects the results; only the sending is ours.
 */
export class StatementPipeline extends pg.Query {
  readonly #parts: PipelinePart[];

  readonly #isAnswering: (query: StatementPipeline) => boolean;

  /**
   * isAnswering tells whether the connection's answers are now this pipeline's: in pipeline mode,
   * statements written before it may still be answered (their parses confirmed) after it is sent.
   */
  constructor(
    parts: PipelinePart[],
    options: { rowMode?: unknown; types?: unknown },
    callback: (error: Error | null, results: unknown) => void,
    isAnswering: (query: StatementPipeline) => boolean,
  ) {
    super({ text: parts.at(-1)?.text ?? '', ...options } as pg.QueryConfig, (error, results) =>
      callback(error ?? null, results),
    );
    this.#parts = parts;
    this.#isAnswering = isAnswering;
  }

  // Called by the client to write the pipeline (in pipeline mode, while earlier statements may still
  // be answered); returning an error fails it unsent.
  override submit = (connection: unknown): Error | null => {
    const protocol = connection as ProtocolConnection;
    let values: unknown[][];
    try {
      values = this.#parts.map((part) => part.values.map((value) => prepareValue(value)));
    } catch (error) {
      return error instanceof Error ? error : new Error('a value could not be sent');
    }
    // Names parsed by this pipeline, in order (null for unnamed ones): each parseComplete that
    // comes back confirms the next, so a pipeline cut short by an error leaves no false record.
    const parsing: Array<{ name: string; text: string } | null> = [];
    const onParsed = () => {
      if (!this.#isAnswering(this)) return;
      const parsed = parsing.shift();
      if (!parsed) return;
      protocol.parsedStatements[parsed.name] = parsed.text;
      delete protocol.submittedNamedStatements[parsed.name];
    };
    const finish = this.callback;
    this.callback = (error: Error | null, results: unknown) => {
      protocol.removeListener('parseComplete', onParsed);
      for (const left of parsing) if (left) delete protocol.submittedNamedStatements[left.name];
      finish?.(error, results);
    };
    protocol.on('parseComplete', onParsed);
    protocol.stream.cork?.();
    try {
      this.#parts.forEach((part, i) => {
        const name = part.name ?? '';
        const known =
          name !== '' &&
          (protocol.parsedStatements[name] !== undefined ||
            protocol.submittedNamedStatements[name] !== undefined);
        if (!known) {
          protocol.parse({ text: part.text, name });
          parsing.push(name === '' ? null : { name, text: part.text });
          if (name !== '') protocol.submittedNamedStatements[name] = part.text;
        }
        protocol.bind({ portal: '', statement: name, values: values[i] ?? [] });
        protocol.describe({ type: 'P', name: '' });
        protocol.execute({ portal: '' });
      });
      protocol.sync();
    } finally {
      protocol.stream.uncork?.();
    }
    return null;
  };

  declare callback: ((error: Error | null, results: unknown) => void) | undefined;
}
