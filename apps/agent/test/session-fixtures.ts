import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { AgentDirs } from './agent-fixture.ts';

/** A GitHub token in the shape secret scanners know: it must never reach the server's tables. */
export const SECRET = 'ghp_' + 'Zq8Wm2Lx5Rt7Yp1Vb3Nc6Hd9Jf4Gk0Sa2Ue';

export const claudeSessionId = '4f35e220-c435-4cf7-b9b9-f40426042847';
export const codexSessionId = '019a2d7a-41c4-78b1-b7cc-a45d62a89cd5';

const at = (minute: number) => new Date(Date.UTC(2026, 10, 3, 9, minute)).toISOString();

const claudeBase = (uuid: string, minute: number) => ({
  parentUuid: null,
  isSidechain: false,
  userType: 'external',
  cwd: '/home/dev/backend',
  sessionId: claudeSessionId,
  version: '2.0.61',
  gitBranch: 'main',
  uuid,
  timestamp: at(minute),
});

/** Lines of a Claude Code transcript, as projects/<folder>/<session>.jsonl holds them. */
export function claudeLines(): string[] {
  return [
    { type: 'summary', summary: 'Deploying the otter service', leafUuid: 'c-4' },
    {
      ...claudeBase('c-1', 1),
      type: 'user',
      message: { role: 'user', content: 'How do we deploy the otter service to staging?' },
    },
    {
      ...claudeBase('c-2', 2),
      type: 'assistant',
      message: {
        id: 'msg_01',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [
          { type: 'thinking', thinking: 'Look at the deploy script first.', signature: 'sig' },
          { type: 'text', text: 'Let me look at the deploy script.' },
          {
            type: 'tool_use',
            id: 'toolu_01',
            name: 'Bash',
            input: { command: 'cat scripts/deploy-otter.sh', description: 'Read the deploy script' },
          },
        ],
      },
    },
    {
      ...claudeBase('c-3', 3),
      type: 'user',
      message: {
        role: 'user',
        content: [
          {
            tool_use_id: 'toolu_01',
            type: 'tool_result',
            content: 'RAW-TOOL-OUTPUT-BLOB #!/bin/sh\nsystemctl restart otter',
            is_error: false,
          },
        ],
      },
      toolUseResult: { stdout: 'RAW-TOOL-OUTPUT-BLOB', stderr: '' },
    },
    {
      ...claudeBase('c-4', 4),
      type: 'assistant',
      message: {
        role: 'assistant',
        content: [{ type: 'text', text: `Run make deploy-otter with GITHUB_TOKEN=${SECRET} exported.` }],
      },
    },
  ].map((line) => JSON.stringify(line));
}

/** A next Claude Code line, for appending. */
export function claudeLine(uuid: string, minute: number, text: string): string {
  return JSON.stringify({
    ...claudeBase(uuid, minute),
    type: 'user',
    message: { role: 'user', content: text },
  });
}

/** Lines of a Codex rollout, as sessions/YYYY/MM/DD/rollout-*.jsonl holds them. */
export function codexLines(): string[] {
  const item = (minute: number, payload: Record<string, unknown>) => ({
    timestamp: at(minute),
    type: 'response_item',
    payload,
  });
  return [
    {
      timestamp: at(10),
      type: 'session_meta',
      payload: {
        id: codexSessionId,
        timestamp: at(10),
        cwd: '/home/dev/frontend',
        originator: 'codex_cli_rs',
        cli_version: '0.46.0',
        instructions: null,
        git: {},
      },
    },
    item(10, {
      type: 'message',
      role: 'user',
      content: [
        {
          type: 'input_text',
          text: '<environment_context>\n  <cwd>/home/dev/frontend</cwd>\n</environment_context>',
        },
      ],
    }),
    item(11, {
      type: 'message',
      role: 'user',
      content: [{ type: 'input_text', text: 'Why does the pelican build fail on CI?' }],
    }),
    {
      timestamp: at(11),
      type: 'event_msg',
      payload: { type: 'user_message', message: 'Why does the pelican build fail on CI?', kind: 'plain' },
    },
    {
      timestamp: at(11),
      type: 'turn_context',
      payload: { cwd: '/home/dev/frontend', approval_policy: 'on-request', model: 'gpt-5-codex' },
    },
    item(12, { type: 'reasoning', summary: [], encrypted_content: 'gAAAA' }),
    item(12, {
      type: 'function_call',
      name: 'shell',
      arguments: JSON.stringify({ command: ['bash', '-lc', 'npm run build:pelican'] }),
      call_id: 'call_1',
    }),
    item(13, {
      type: 'function_call_output',
      call_id: 'call_1',
      output: JSON.stringify({ output: 'RAW-TOOL-OUTPUT-BLOB error TS2304', metadata: { exit_code: 1 } }),
    }),
    item(14, {
      type: 'message',
      role: 'assistant',
      content: [
        { type: 'output_text', text: 'The pelican build fails because TS2304: a missing type import.' },
      ],
    }),
    {
      timestamp: at(14),
      type: 'event_msg',
      payload: {
        type: 'agent_message',
        message: 'The pelican build fails because TS2304: a missing type import.',
      },
    },
  ].map((line) => JSON.stringify(line));
}

export const claudeFile = (dirs: AgentDirs) =>
  join(dirs.claude, 'projects', '-home-dev-backend', `${claudeSessionId}.jsonl`);
export const codexFile = (dirs: AgentDirs) =>
  join(dirs.codex, 'sessions', '2026', '11', '03', `rollout-2026-11-03T09-10-00-${codexSessionId}.jsonl`);

export async function writeFixture(path: string, content: string | Buffer): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  await writeFile(path, content);
}
