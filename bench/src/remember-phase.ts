import type { Protections } from '@mmw/core';
import { generateRecord } from './corpus.ts';
import { callTool, post } from './http-client.ts';
import { closedLoop, type LoadResult } from './load.ts';
import { startServer } from './server-process.ts';
import { cpuPerCall, type CpuSplit } from './cpu-time.ts';

export const CLIENTS = 8;
export const POOL_SIZE = 10;
const WARM_UP_SECONDS = 15;
export const ALL_ON: Protections = { guard: true, idempotency: true, limits: true };
const ALL_OFF: Protections = { guard: false, idempotency: false, limits: false };

/**
 * The workspace the remember measures write to: one of their own, so that the searched workspace
 * holds the bulk-loaded records alone (the spec's 200k), and remember starts in an empty workspace.
 */
export const REMEMBER_WORKSPACE = 'remembered';

/** Remember arguments from records far past the bulk-loaded ones, so nothing repeats. */
let nextRecord = 5_000_000;
export function rememberArgs(): Record<string, unknown> {
  const record = generateRecord(nextRecord++);
  return {
    workspace: REMEMBER_WORKSPACE,
    content: record.content,
    ...(record.sourceId ? { source_id: record.sourceId } : {}),
    ...(record.factKey ? { fact_key: record.factKey } : {}),
    ...(record.scope ? { scope: record.scope } : {}),
  };
}

/** The floor: a bare fastify route doing one INSERT on a pool of the same size. */
export async function measureFloor(url: string, clients: number, seconds: number): Promise<RememberResult> {
  const server = await startServer({ mode: 'floor', url, poolSize: POOL_SIZE });
  try {
    const call = async () => {
      const answer = await post(
        `${server.url}/insert`,
        JSON.stringify({ content: String(rememberArgs().content) }),
        {},
      );
      return answer.status === 200 ? undefined : `HTTP ${answer.status}`;
    };
    await closedLoop(clients, WARM_UP_SECONDS, call);
    const { result, split } = await cpuPerCall(server.pid, () => closedLoop(clients, seconds, call));
    return { ...result, cpu: split };
  } finally {
    await server.stop();
  }
}

/** remember over MCP from CLIENTS clients, each with its own key and an X-Idempotency-Key per call. */
export type RememberResult = LoadResult & { cpu: CpuSplit };

export async function measureRemember(
  url: string,
  keys: string[],
  protections: Protections,
  seconds: number,
): Promise<RememberResult> {
  const [result] = await measureRememberWindows(url, keys, protections, seconds, 1);
  if (!result) throw new Error('no window measured');
  return result;
}

/**
 * `windows` measures of `seconds` each, one after the other on one server process: its connections
 * keep their prepared statements and plans, so a rate that falls from one window to the next shows
 * a cost that grows with the table (as a plan cached while it was empty did).
 */
export async function measureRememberWindows(
  url: string,
  keys: string[],
  protections: Protections,
  seconds: number,
  windows: number,
): Promise<RememberResult[]> {
  const server = await startServer({ mode: 'runtime', url, poolSize: POOL_SIZE, worker: false, protections });
  const mcpUrl = `${server.url}/mcp`;
  let run = 0;
  const call = async (client: number) => {
    const answer = await callTool(mcpUrl, keys[client % keys.length] ?? '', 'remember', rememberArgs(), {
      'x-idempotency-key': `bench-${process.pid}-${Date.now()}-${run++}`,
    });
    return answer.ok ? undefined : answer.text;
  };
  try {
    // A server that has run for a while: over the first 30 s the ingress's CPU per call falls by a
    // quarter (the JIT, the connections' prepared statements), and a shorter warm-up measured that.
    await closedLoop(CLIENTS, WARM_UP_SECONDS, call);
    const results: RememberResult[] = [];
    for (let i = 0; i < windows; i++) {
      const { result, split } = await cpuPerCall(server.pid, () => closedLoop(CLIENTS, seconds, call));
      results.push({ ...result, cpu: split });
    }
    return results;
  } finally {
    await server.stop();
  }
}

/**
 * The bare-INSERT floor at CLIENTS clients, and remember with protections on and off, in turn, twice:
 * a drift of the machine (its speed moves by a tenth within minutes) hits all three alike, and each
 * ratio compares measures taken minutes apart at most.
 */
export async function measureProtections(url: string, keys: string[], seconds: number) {
  const floor: RememberResult[] = [];
  const on: RememberResult[] = [];
  const off: RememberResult[] = [];
  for (let round = 0; round < 2; round++) {
    floor.push(await measureFloor(url, CLIENTS, seconds));
    on.push(await measureRemember(url, keys, ALL_ON, seconds));
    off.push(await measureRemember(url, keys, ALL_OFF, seconds));
  }
  return { floor, on, off };
}
