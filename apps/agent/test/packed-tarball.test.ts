import { execFile } from 'node:child_process';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, inheritedEnv, repoRoot, type TestDatabase } from '@mmw/test-support';
import { startMcp, type RunningMcp } from '@mmw/mcp/testing';
import { agentDirs, agentEnv, connectAgent, type AgentDirs } from './agent-fixture.ts';

const run = promisify(execFile);

let db: TestDatabase;
let mcp: RunningMcp;
let key: string;
let dirs: AgentDirs;
let folder: string;

beforeAll(async () => {
  db = await createTestDatabase();
  mcp = await startMcp(db.database);
  key = (await mcp.key('acme', 'backend')).key;
  dirs = await agentDirs();
  folder = await mkdtemp(join(tmpdir(), 'mmw-agent-install-'));
}, 180_000);

afterAll(async () => {
  await mcp.close();
  await db.drop();
  await dirs.remove();
  await rm(folder, { recursive: true, force: true });
});

describe('the packed tarball', () => {
  it('installs into an empty folder without the network and runs with npx as a stdio server', async () => {
    const packs = join(folder, 'packs');
    await run('npx', ['--yes', 'pnpm@10.34.9', 'pack', '--pack-destination', packs], {
      cwd: join(repoRoot, 'apps/agent'),
    });
    const [tarball] = await readdir(packs);
    expect(tarball).toMatch(/^mmw-agent-\d+\.\d+\.\d+\.tgz$/);
    const project = join(folder, 'project');
    await run('mkdir', ['-p', project]);
    // Only Node.js and npm: nothing is fetched (offline), so the bundle must need no dependency.
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(packs, tarball ?? '')], {
      cwd: project,
      env: { ...inheritedEnv, npm_config_cache: join(folder, 'npm-cache') },
    });
    expect(await readdir(join(project, 'node_modules'))).toEqual(['.bin', '.package-lock.json', 'mmw-agent']);
    const version = await run('npx', ['--no', 'mmw-agent', '--version'], {
      cwd: project,
      env: { ...inheritedEnv },
    });
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);

    const client = await connectAgent(agentEnv(dirs, mcp.url, key), [
      'npx',
      '--no',
      '--prefix',
      project,
      'mmw-agent',
    ]);
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(['remember', 'search_sessions', 'mmw_sync_status']),
      );
      const stored = await client.callTool({
        name: 'remember',
        arguments: { content: 'Packed agents forward to the server: grebe' },
      });
      expect(stored.isError).not.toBe(true);
      expect(await db.query("select 1 from records where content like '%grebe%'")).toHaveLength(1);
    } finally {
      await client.close();
    }
  });
});
