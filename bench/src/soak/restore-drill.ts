import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { provisionKey } from '@mmw/core';
import { migratePostgres, openPostgres } from '@mmw/db';
import { callTool } from '../http-client.ts';
import { createOwnCluster, type OwnCluster } from './own-cluster.ts';

// The restore drill (docs/operations.md): a cluster of its own with WAL archiving, a base backup
// taken by pg_basebackup while remembers arrive through an MCP ingress of the build, the WAL archived
// up to the last acknowledged one, then the backup and the archive restored into a new cluster on
// another port: every acknowledged record must be there. Bounded: DRILL_SECONDS of load (30 by default).
const seconds = Number(process.env.DRILL_SECONDS ?? 30);
const port = Number(process.env.DRILL_PG_PORT ?? 5442);
const mcpPort = Number(process.env.DRILL_MCP_PORT ?? 18296);
const repo = fileURLToPath(new URL('../../../', import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const source = createOwnCluster(port, ['wal_level=replica', 'archive_mode=on', 'archive_timeout=10s']);
const archive = join(source.dataDir, '..', 'wal-archive');
const backup = join(source.dataDir, '..', 'base-backup');
mkdirSync(archive);
chmodSync(archive, 0o777);
// archive_command is set after initdb, in the cluster's own configuration file.
writeFileSync(join(source.dataDir, 'postgresql.auto.conf'), `archive_command = 'test ! -f ${archive}/%f && cp %p ${archive}/%f'\n`);
let restored: OwnCluster | undefined;
const ingress = { kill: () => {} };

try {
  source.start();
  source.run('createdb', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', 'mmw']);
  const url = source.url('mmw');
  await migratePostgres(url);
  const owner = openPostgres(url, { poolSize: 2 });
  const { key } = await provisionKey(owner.db, { account: 'drill', project: 'default' });
  await owner.close();
  const child = spawn(process.execPath, [join(repo, 'apps/mcp/dist/main.js')], {
    // The drill's one key writes as fast as it can: the per-minute call limits (600 a minute on the
    // self-hosted plan) would refuse every remember after the base backup on an idle machine.
    env: {
      PATH: process.env.PATH ?? '',
      DATABASE_URL: url,
      MCP_PORT: String(mcpPort),
      LOG_LEVEL: 'error',
      MMW_KEY_CALLS_PER_MINUTE: '100000000',
      MMW_PROJECT_CALLS_PER_MINUTE: '100000000',
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  ingress.kill = () => child.kill('SIGKILL');
  const mcpUrl = `http://127.0.0.1:${mcpPort}/mcp`;
  for (let i = 0; i < 240 && !(await fetch(`http://127.0.0.1:${mcpPort}/readyz`).then((r) => r.ok, () => false)); i++) await sleep(500);

  const acknowledged: string[] = [];
  let running = true;
  const client = async () => {
    while (running) {
      const content = `drill ${randomUUID()}`;
      const answer = await callTool(mcpUrl, key, 'remember', { content }).catch(() => undefined);
      if (answer?.ok) acknowledged.push(content);
    }
  };
  const load = Promise.all([client(), client(), client(), client()]);
  await sleep((seconds * 1000) / 3);
  const beforeBackup = acknowledged.length;
  source.run('pg_basebackup', ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', '-D', backup, '-X', 'none', '-c', 'fast']);
  await sleep((seconds * 2000) / 3);
  running = false;
  await load;
  ingress.kill();
  // Every acknowledged commit is in a WAL segment that is archived before the drill restores.
  const [switched] = await query<{ wal: string }>(url, 'select pg_walfile_name(pg_switch_wal()) as wal');
  for (let i = 0; i < 120; i++) {
    const [row] = await query<{ last: string | null }>(url, 'select last_archived_wal as last from pg_stat_archiver');
    if (row?.last !== null && row?.last !== undefined && switched && row.last >= switched.wal) break;
    await sleep(500);
  }
  source.stop('immediate');

  // The restore: the base backup, recovery from the archive to its end, on a new port.
  restored = createOwnCluster(port + 1);
  restored.sh(`rm -rf ${restored.dataDir} && cp -a ${backup} ${restored.dataDir} && touch ${restored.dataDir}/recovery.signal`);
  restored.sh(`echo "restore_command = 'cp ${archive}/%f %p'" >> ${restored.dataDir}/postgresql.auto.conf && echo "archive_mode = off" >> ${restored.dataDir}/postgresql.auto.conf`);
  const started = Date.now();
  restored.start();
  const restoredUrl = restored.url('mmw');
  for (let i = 0; i < 240; i++) {
    const [row] = await query<{ recovering: boolean }>(restoredUrl, 'select pg_is_in_recovery() as recovering').catch(() => []);
    if (row?.recovering === false) break;
    await sleep(500);
  }
  const rows = await query<{ content: string }>(restoredUrl, "select content from records where content like 'drill %'");
  const present = new Set(rows.map((r) => r.content));
  const missing = acknowledged.filter((c) => !present.has(c));
  process.stdout.write(
    `acknowledged remembers: ${acknowledged.length} (${beforeBackup} before the base backup, ${acknowledged.length - beforeBackup} after: from the WAL archive)\n` +
      `present after the restore: ${acknowledged.length - missing.length}; missing: ${missing.length}; restore and recovery took ${((Date.now() - started) / 1000).toFixed(1)} s\n` +
      (missing.length === 0 && acknowledged.length > beforeBackup ? 'restore drill: PASS\n' : 'restore drill: FAIL\n'),
  );
  process.exitCode = missing.length === 0 && acknowledged.length > beforeBackup ? 0 : 1;
} finally {
  ingress.kill();
  restored?.remove();
  source.remove();
}

async function query<T>(url: string, text: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text)).rows as T[];
  } finally {
    await client.end();
  }
}
