import {
  AppError,
  billingOverview,
  createInputGuard,
  createJobQueue,
  exportJsonLines,
  guardPoolFor,
  importJsonLines,
  operatorMember,
  readLines,
  provisionKey,
  reconcileByOperator,
  revokeKeyByOperator,
  setProjectActiveByOperator,
  setSubscriptionByOperator,
} from '@mmw/core';
import type { Database } from '@mmw/db';
import type { CliConfig } from './config.ts';

export const usage = `Usage: pnpm mmw <command>

  migrate                                   apply database migrations
  key create --account A --project P [--member EMAIL] [--name N] [--read-only] [--expires-days D]
                                            create a key (and the account, project and member if missing);
                                            the key is printed alone on the last line; --read-only: search
                                            and validate_memory only; --expires-days: it stops working after D days
  key revoke KEY_ID_OR_PREFIX               revoke a key at once
  project deactivate --account A --project P
  project activate --account A --project P
  subscription set --account A --status STATUS [--plan PLAN] [--period-end ISO]
                                            STATUS: active, trialing, past_due, canceled, unpaid, none, ...
  billing reconcile [--account A]           make every billed account's subscription (or A's) what Stripe
                                            says now, as the daily reconciliation does; one line per account
  export --account A [--project P] [--workspace W] [--member EMAIL] > file.jsonl
                                            the account's records (or a project's, a workspace's) as JSON Lines,
                                            as the member (the first owner by default) may read them
  import --account A [--project P] [--member EMAIL] [--file F]
                                            import an export (standard input, or F) into the account; prints
                                            what was imported and what was skipped, and why
  jobs failed                               list jobs that failed after their last retry
  jobs retry JOB_ID                         run a failed job again
`;

export type Options = Partial<
  Record<
    'account' | 'project' | 'member' | 'name' | 'status' | 'plan' | 'period-end' | 'expires-days' | 'workspace' | 'file',
    string
  >
> & { 'read-only'?: boolean };

/** What export and import read and write besides lines of text: the file's bytes, and the settings. */
export interface CommandIo {
  /** Writes a piece of the export to standard output, waiting while it is full. */
  write(text: string): Promise<void>;
  /** The bytes of the file to import: standard input, or the file --file names. */
  input(file: string | undefined): AsyncIterable<Uint8Array | string>;
}

function required(options: Options, name: Exclude<keyof Options, 'read-only'>): string {
  const value = options[name]?.trim();
  if (!value) throw new AppError('invalid_input', `--${name} is required`);
  return value;
}

function parseDate(value: string | undefined): Date | undefined {
  if (value === undefined) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) throw new AppError('invalid_input', '--period-end must be an ISO 8601 date');
  return date;
}

/** Runs one operator command; returns the exit code. */
export async function runCommand(
  database: Database,
  config: CliConfig,
  args: string[],
  options: Options,
  print: (line: string) => void,
  io?: CommandIo,
): Promise<number> {
  const db = database.db;
  const [noun, verb, target] = args;
  const command = `${noun ?? ''} ${verb ?? ''}`.trim();
  switch (command) {
    case 'key create': {
      const issued = await provisionKey(db, {
        account: required(options, 'account'),
        project: required(options, 'project'),
        member: options.member,
        name: options.name,
        readOnly: options['read-only'] === true,
        ...(options['expires-days'] === undefined ? {} : { expiresInDays: Number(options['expires-days']) }),
      });
      print(`key ${issued.keyId} (${issued.prefix}) for project ${options.project} of account ${options.account}:`);
      print(issued.key);
      return 0;
    }
    case 'key revoke': {
      if (!target) throw new AppError('invalid_input', 'give the key id or prefix to revoke');
      const { keyId } = await revokeKeyByOperator(db, target);
      print(`revoked key ${keyId}`);
      return 0;
    }
    case 'project deactivate':
    case 'project activate': {
      const active = verb === 'activate';
      const { projectId } = await setProjectActiveByOperator(db, {
        account: required(options, 'account'),
        project: required(options, 'project'),
        active,
      });
      print(`project ${projectId} ${active ? 'activated' : 'deactivated'}`);
      return 0;
    }
    case 'subscription set': {
      await setSubscriptionByOperator(db, {
        account: required(options, 'account'),
        status: required(options, 'status'),
        plan: options.plan,
        periodEnd: parseDate(options['period-end']),
      });
      print(`subscription of ${options.account} set to ${options.status}`);
      return 0;
    }
    case 'billing reconcile': {
      const account = options.account?.trim();
      const done = await reconcileByOperator(
        { db, config },
        account === undefined || account === '' ? {} : { account },
      );
      for (const { account: slug, outcome } of done) print(`${slug}  ${outcome}`);
      const failed = done.filter((row) => row.outcome === 'failed').length;
      print(`${done.length} account(s) reconciled${failed === 0 ? '' : `, ${failed} failed (Stripe could not be asked)`}`);
      return failed === 0 ? 0 : 1;
    }
    case 'export': {
      if (io === undefined) throw new AppError('invalid_input', 'export writes to standard output');
      const exporter = await operatorMember(db, { account: required(options, 'account'), member: options.member });
      const pages = exportJsonLines(db, exporter, { project: options.project, workspace: options.workspace }, {
        instance: config.PUBLIC_URL === undefined ? null : new URL(config.PUBLIC_URL).origin,
      });
      for await (const page of pages) await io.write(page);
      return 0;
    }
    case 'import': {
      if (io === undefined) throw new AppError('invalid_input', 'import reads standard input or --file');
      const importer = await operatorMember(db, { account: required(options, 'account'), member: options.member });
      const guard = guardPoolFor(config);
      try {
        const report = await importJsonLines(db, importer, { project: options.project }, readLines(io.input(options.file)), {
          guard: createInputGuard(guard),
          allowance: await billingOverview(db, config, importer, new Date()),
        });
        print(
          `imported ${report.imported} records, ${report.tombstones} tombstones and ${report.relations} relations from ${report.source}; ` +
            `${report.alreadyPresent} already present; ${report.skipped} skipped; ${report.droppedReferences} references to records not imported dropped`,
        );
        for (const [reason, count] of Object.entries(report.skippedByReason)) print(`skipped ${count}: ${reason}`);
        for (const skipped of report.skippedLines) print(`  line ${skipped.line} (${skipped.id}): ${skipped.reason}`);
        return 0;
      } finally {
        await guard.close();
      }
    }
    case 'jobs failed': {
      const jobs = await createJobQueue(database, { supervise: false });
      const failed = await jobs.failed();
      await jobs.stop();
      for (const job of failed) print(`${job.id}  ${job.queue}  ${job.failedAt.toISOString()}  ${JSON.stringify(job.payload)}`);
      print(`${failed.length} failed job(s)`);
      return 0;
    }
    case 'jobs retry': {
      if (!target) throw new AppError('invalid_input', 'give the id of the failed job to retry');
      const jobs = await createJobQueue(database, { supervise: false });
      try {
        await jobs.retry(target);
      } finally {
        await jobs.stop();
      }
      print(`job ${target} sent again`);
      return 0;
    }
    default:
      print(usage);
      return 2;
  }
}
