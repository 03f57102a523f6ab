import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * A PostgreSQL cluster of the script's own, in a temporary folder, on its own port: the shared one on
 * 5432 is never restarted or reconfigured. Created with initdb as the postgres user, removed at the end.
 */
export interface OwnCluster {
  port: number;
  dataDir: string;
  bin: (tool: string) => string;
  url(database: string, user?: string, password?: string): string;
  /** Runs a tool of PostgreSQL's as the postgres user. */
  run(tool: string, args: string[]): string;
  /** A shell command as the postgres user (copying a backup into place). */
  sh(script: string): string;
  start(): void;
  stop(mode?: 'fast' | 'immediate'): void;
  remove(): void;
}

export function createOwnCluster(port: number, settings: string[] = []): OwnCluster {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) throw new Error('PostgreSQL server binaries are missing: apt-get install postgresql');
  const version = readdirSync(root).sort((a, b) => Number(b) - Number(a))[0];
  if (version === undefined) throw new Error(`no PostgreSQL version under ${root}`);
  const bin = (tool: string) => join(root, version, 'bin', tool);
  const base = mkdtempSync(join(tmpdir(), `mmw-pg-${port}-`));
  chmodSync(base, 0o777);
  const dataDir = join(base, 'data');
  const asPostgres = (tool: string, args: string[]) =>
    execFileSync('runuser', ['-u', 'postgres', '--', tool, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  asPostgres(bin('initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', '--no-sync']);
  const options = ['-p', String(port), '-k', base, '-c', 'listen_addresses=127.0.0.1', ...settings.flatMap((s) => ['-c', s])];
  const cluster: OwnCluster = {
    port,
    dataDir,
    bin,
    url: (database, user = 'postgres', password) =>
      `postgres://${user}${password ? `:${password}` : ''}@127.0.0.1:${port}/${database}`,
    run: (tool, args) => asPostgres(bin(tool), args),
    sh: (script) => asPostgres('sh', ['-c', script]),
    start: () => void asPostgres(bin('pg_ctl'), ['-D', dataDir, '-w', '-t', '60', '-l', join(base, 'log'), '-o', options.join(' '), 'start']),
    stop: (mode = 'fast') => void asPostgres(bin('pg_ctl'), ['-D', dataDir, '-w', '-t', '60', '-m', mode, 'stop']),
    remove: () => {
      try {
        cluster.stop('immediate');
      } catch {
        // already stopped
      }
      rmSync(base, { recursive: true, force: true });
    },
  };
  return cluster;
}

/** The roles of a deployment: the owner migrates; mmw_service logs in, without BYPASSRLS, as a member of mmw_app. */
export function createAppRole(cluster: OwnCluster, database: string, password: string): void {
  cluster.run('psql', [
    '-h', '127.0.0.1', '-p', String(cluster.port), '-U', 'postgres', '-d', database, '-v', 'ON_ERROR_STOP=1', '-c',
    `CREATE ROLE mmw_app NOLOGIN NOBYPASSRLS; CREATE ROLE mmw_service LOGIN NOBYPASSRLS PASSWORD '${password}'; GRANT mmw_app TO mmw_service;`,
  ]);
}
