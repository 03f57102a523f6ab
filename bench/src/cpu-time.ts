import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';

/** Milliseconds of CPU (user and system) a process has used, from /proc; 0 where it cannot be read. */
function processCpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[11] ?? 0) + Number(fields[12] ?? 0);
    return Number.isFinite(ticks) ? ticks * 10 : 0;
  } catch {
    return 0;
  }
}

/** A process and its descendants (the server is started through tsx, which runs it as a child). */
function processTree(pid: number): number[] {
  try {
    const children = execFileSync('pgrep', ['-P', String(pid)], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(Number);
    return [pid, ...children.flatMap(processTree)];
  } catch {
    return [pid];
  }
}

/** The processes of the local PostgreSQL server, when it runs on this machine as `postgres`. */
function postgresPids(): number[] {
  try {
    return execFileSync('pgrep', ['-u', 'postgres', 'postgres'], { encoding: 'utf8' })
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map(Number);
  } catch {
    return [];
  }
}

export interface CpuSplit {
  /** Milliseconds of CPU per call: the server process, this process (the load), PostgreSQL's processes. */
  server: number;
  load: number;
  postgres: number;
}

/**
 * CPU time per call while `work` runs, by process: on a machine whose cores every side shares, a
 * steadier figure than calls per second. Linux only; PostgreSQL's share is 0 when it is not local.
 */
export async function cpuPerCall<T extends { calls: number }>(
  serverPid: number | undefined,
  work: () => Promise<T>,
) {
  const snapshot = (pids: number[]) => new Map(pids.map((pid) => [pid, processCpuMs(pid)]));
  // Per process, so that one that ended meanwhile (a backend of an earlier phase) subtracts nothing;
  // its time since `before` is not counted, so the figure is a floor.
  const spent = (before: Map<number, number>, pids: number[]) =>
    pids.reduce((total, pid) => total + Math.max(0, processCpuMs(pid) - (before.get(pid) ?? 0)), 0);
  const server = serverPid === undefined ? [] : processTree(serverPid);
  const before = { server: snapshot(server), load: process.cpuUsage(), postgres: snapshot(postgresPids()) };
  const result = await work();
  const load = process.cpuUsage(before.load);
  const calls = Math.max(result.calls, 1);
  const split: CpuSplit = {
    server: spent(before.server, server) / calls,
    load: (load.user + load.system) / 1000 / calls,
    postgres: spent(before.postgres, postgresPids()) / calls,
  };
  return { result, split };
}
