/**
 * What the MCP layer costs by itself: the real ingress (buildMcpApp, with its SDK server)
 * over a memory service that answers at once, against a bare fastify route giving the same answer,
 * both driven over HTTP from this process. No database, no guard: CPU per call here is the server's
 * and its client's, in one process.
 */
import Fastify from 'fastify';
import type { CallerAuthenticator, MemoryService, MemorySession, RecordView } from '@mmw/core';
import { buildMcpApp } from '@mmw/mcp';
import { callTool, post } from './http-client.ts';
import { closedLoop, rate, type Call } from './load.ts';
import { CLIENTS, rememberArgs } from './remember-phase.ts';

const SECONDS = 5;

function answerFor(content: string): RecordView {
  const now = new Date().toISOString();
  return {
    id: '3d2b5c1e-0f6a-4f1e-9b7a-2a1c3e4d5f60',
    workspace: 'default',
    content,
    source: 'agent',
    source_id: null,
    source_hash: null,
    source_revision: null,
    fact_key: null,
    confidence: 0.5,
    scope: null,
    derived_from: [],
    superseded_by: null,
    status: 'unverified',
    graph_relations: [],
    created_at: now,
    updated_at: now,
  };
}

const session: MemorySession = {
  caller: { accountId: 'bench', projectId: 'bench', userId: 'bench', keyId: 'bench', source: 'agent' },
  projectActive: true,
  plan: 'self-hosted',
  subscription: undefined,
};

/** Only what a remember over MCP reaches; the other tools are not called here. */
const answeringService = {
  remember: (_session: MemorySession, input: { content: string }) =>
    Promise.resolve(answerFor(input.content)),
} as unknown as MemoryService;

const answeringAuthenticator = {
  authenticate: () => Promise.resolve({ ...session }),
} as unknown as CallerAuthenticator;

async function measure(call: Call) {
  await closedLoop(CLIENTS, SECONDS, call);
  const before = process.cpuUsage();
  const result = await closedLoop(CLIENTS, SECONDS, call);
  const cpu = process.cpuUsage(before);
  return { result, cpuMs: (cpu.user + cpu.system) / 1000 / Math.max(result.calls, 1) };
}

export interface McpLayerFigures {
  mcp: { perSecond: number; cpuMs: number; firstError: string | undefined };
  bare: { perSecond: number; cpuMs: number };
}

export async function measureMcpLayer(): Promise<McpLayerFigures> {
  const mcpApp = await buildMcpApp({
    db: {} as never,
    authenticator: answeringAuthenticator,
    service: answeringService,
    logLevel: 'silent',
  });
  const bare = Fastify({ logger: false });
  bare.post<{ Body: { content?: unknown } }>('/remember', (request) =>
    Promise.resolve(answerFor(String(request.body.content))),
  );
  try {
    const mcpUrl = `${await mcpApp.listen({ host: '127.0.0.1', port: 0 })}/mcp`;
    const bareUrl = `${await bare.listen({ host: '127.0.0.1', port: 0 })}/remember`;
    const mcp = await measure(async () => {
      const answer = await callTool(mcpUrl, 'mmw_bench', 'remember', rememberArgs());
      return answer.ok ? undefined : answer.text;
    });
    const plain = await measure(async () => {
      const answer = await post(bareUrl, JSON.stringify(rememberArgs()), {});
      return answer.status === 200 ? undefined : `HTTP ${answer.status}`;
    });
    return {
      mcp: { perSecond: rate(mcp.result), cpuMs: mcp.cpuMs, firstError: mcp.result.firstError },
      bare: { perSecond: rate(plain.result), cpuMs: plain.cpuMs },
    };
  } finally {
    await mcpApp.close();
    await bare.close();
  }
}
