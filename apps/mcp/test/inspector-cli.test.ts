import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { useMcp } from './fixtures.ts';

// The MCP Inspector's command line, as an outside client of each revision (its own SDK, its own
// negotiation), run through its bin with a timeout.
const inspector = fileURLToPath(new URL('../node_modules/.bin/mcp-inspector', import.meta.url));
const f = useMcp('inspector-co', 'main');

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

function run(era: 'legacy' | 'modern', args: string[]): Promise<Run> {
  return new Promise((resolve) => {
    execFile(
      inspector,
      [
        '--cli',
        '--server-url',
        f.mcp.url,
        '--transport',
        'http',
        '--header',
        `Authorization: Bearer ${f.key}`,
        '--protocol-era',
        era,
        '--connect-timeout',
        '20000',
        ...args,
      ],
      // No catalog, OAuth store or client config of the machine's: a directory of the test's own.
      { timeout: 60_000, env: { ...process.env, HOME: '/tmp/mmw-inspector-home', NO_COLOR: '1' } },
      (error, stdout, stderr) => {
        const code = error === null ? 0 : typeof error.code === 'number' ? error.code : -1;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

describe.each(['legacy', 'modern'] as const)('the MCP Inspector CLI, %s era', (era) => {
  it('lists the five tools', async () => {
    const listed = await run(era, ['--method', 'tools/list', '--format', 'json']);
    expect(listed.stderr).not.toMatch(/error/i);
    expect(listed.code).toBe(0);
    const names = (JSON.parse(listed.stdout) as { result: { tools: Array<{ name: string }> } }).result.tools.map((t) => t.name);
    expect(names.sort()).toEqual(['forget', 'remember', 'search', 'search_sessions', 'validate_memory']);
  }, 90_000);

  it('remembers and finds a record', async () => {
    const content = `inspector ${era}: the nightly backup runs at two`;
    const saved = await run(era, [
      '--method',
      'tools/call',
      '--tool-name',
      'remember',
      '--tool-args-json',
      JSON.stringify({ content, fact_key: `inspector-${era}` }),
      '--format',
      'json',
    ]);
    expect(saved.code).toBe(0);
    expect((JSON.parse(saved.stdout) as { result: { structuredContent: { content: string } } }).result.structuredContent
        .content).toBe(
      content,
    );
    const found = await run(era, [
      '--method',
      'tools/call',
      '--tool-name',
      'search',
      '--tool-args-json',
      JSON.stringify({ query: 'nightly backup' }),
      '--format',
      'json',
    ]);
    expect(found.code).toBe(0);
    const result = (
      JSON.parse(found.stdout) as { result: { structuredContent: { result: Array<{ content: string }> } } }
    ).result.structuredContent.result;
    expect(result.map((r) => r.content)).toContain(content);
  }, 90_000);

  it('finds no tool-schema portability problem (--strict)', async () => {
    const strict = await run(era, ['--method', 'tools/list', '--strict']);
    expect(strict.code).toBe(0);
    // Each problem is reported on stderr as a "Warning: tool …" block with its path and issue.
    expect(strict.stderr).not.toMatch(/warning|issue:/i);
    expect(strict.stdout).toContain('"remember"');
  }, 90_000);
});
