import { createReadStream } from 'node:fs';
import { once } from 'node:events';
import { parseArgs } from 'node:util';
import { isAppError } from '@mmw/core';
import { migratePostgres, openDatabase, runningServerPid, type Database } from '@mmw/db';
import { runCommand, usage } from './commands.ts';
import { loadCliConfig } from './config.ts';

const config = loadCliConfig();

async function open(): Promise<Database> {
  if (config.DATABASE_URL === undefined) {
    const pid = runningServerPid(config.MMW_DATA_DIR);
    if (pid !== undefined) {
      throw new Error(
        `MMW is running on the embedded database in ${config.MMW_DATA_DIR} (pid ${pid}), which one process owns. ` +
          'Stop the server first, or run MMW and this command against PostgreSQL with DATABASE_URL.',
      );
    }
  }
  return openDatabase({
    databaseUrl: config.DATABASE_URL,
    dataDir: config.MMW_DATA_DIR,
    limits: { poolSize: 2 },
  });
}

async function main(argv: string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      account: { type: 'string' },
      project: { type: 'string' },
      member: { type: 'string' },
      name: { type: 'string' },
      status: { type: 'string' },
      plan: { type: 'string' },
      'period-end': { type: 'string' },
      'expires-days': { type: 'string' },
      workspace: { type: 'string' },
      file: { type: 'string' },
      'read-only': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length === 0) {
    process.stdout.write(usage);
    return values.help ? 0 : 2;
  }
  if (positionals[0] === 'migrate') {
    if (config.DATABASE_URL !== undefined) await migratePostgres(config.DATABASE_URL);
    else await (await open()).close();
    process.stdout.write('migrations applied\n');
    return 0;
  }
  const database = await open();
  try {
    return await runCommand(database, config, positionals, values, (line) => process.stdout.write(`${line}\n`), {
      async write(text) {
        if (!process.stdout.write(text)) await once(process.stdout, 'drain');
      },
      input: (file) => (file === undefined ? process.stdin : createReadStream(file)),
    });
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    const message = isAppError(error) || error instanceof Error ? error.message : 'unexpected failure';
    process.stderr.write(`mmw: ${message}\n`);
    process.exit(1);
  },
);
