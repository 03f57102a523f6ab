import { describe, expect, it } from 'vitest';
import { useMcp, type Rec } from './fixtures.ts';
import { rawToolCall } from './raw-call.ts';

const f = useMcp('tenant-a', 'main');

describe('row-level security', () => {
  it('is enabled and forced on every tenant table', async () => {
    const tables = await f.db.query<{ table: string; enabled: boolean; forced: boolean }>(`
      select c.relname as table, c.relrowsecurity as enabled, c.relforcerowsecurity as forced
      from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind in ('r', 'p')
        and exists (select 1 from pg_attribute a where a.attrelid = c.oid and a.attname = 'account_id' and not a.attisdropped)
      order by 1`);
    expect(tables.length).toBeGreaterThanOrEqual(10);
    expect(tables.filter((t) => !t.enabled || !t.forced).map((t) => t.table)).toEqual([]);
  });

  it('runs the application as a role that cannot bypass it and owns no table', async () => {
    const [role] = await f.db.query<{ bypass: boolean; superuser: boolean }>(
      "select rolbypassrls as bypass, rolsuper as superuser from pg_roles where rolname = 'mmw_app'",
    );
    expect(role).toEqual({ bypass: false, superuser: false });
    const owned = await f.db.query("select tablename from pg_tables where tableowner = 'mmw_app'");
    expect(owned).toEqual([]);
    const { rows } = await f.db.database.executeSql('select current_user as who');
    expect(rows[0]?.who).toBe('mmw_app');
  });

  it('shows nothing to a query without a tenant, and keeps the audit log append-only', async () => {
    await f.client.ok('remember', { content: 'tenant data' });
    const { rows } = await f.db.database.executeSql('select count(*)::int as n from records');
    expect(rows[0]?.n).toBe(0);
    const [account] = await f.db.query<{ id: string }>("select id from accounts where slug = 'tenant-a'");
    const attempt = async (statement: string) => {
      try {
        await f.db.database.executeSql(
          `begin; select set_config('mmw.account_id', '${account?.id ?? ''}', true); ${statement}; commit;`,
        );
        return 'allowed';
      } catch (error) {
        await f.db.database.executeSql('rollback');
        return (error as { code?: string }).code ?? 'failed';
      }
    };
    expect(await attempt('update audit_events set action = action')).toBe('42501');
    expect(await attempt('delete from audit_events')).toBe('42501');
  });
});

describe('cross-tenant matrix over every MCP tool', () => {
  it("gives another tenant's ids, workspaces and keys not-found or the spec's text, and changes nothing", async () => {
    const victim = await f.client.ok<Rec>('remember', {
      content: 'victim fact about payroll',
      workspace: 'payroll',
      source_id: 'hr/payroll.md',
      source_hash: 'h1',
      fact_key: 'payroll',
    });
    const sameAccountOtherProject = await f.mcp.key('tenant-a', 'other');
    const otherAccount = await f.mcp.key('tenant-b', 'main');
    await rawToolCall(f.mcp.url, otherAccount.key, 'remember', { content: 'b has a default workspace' });
    await rawToolCall(f.mcp.url, otherAccount.key, 'remember', { content: 'b payroll', workspace: 'payroll-b' });

    const before = await f.db.query('select id, deleted_at, superseded_by from records order by id');
    const expectations: Array<[string, Record<string, unknown>, RegExp]> = [
      ['search', { query: 'payroll', workspace: 'payroll' }, /^(workspace 'payroll' is not active|403 Forbidden: workspace access denied for project)$/],
      ['validate_memory', { workspace: 'payroll', source_id: 'hr/payroll.md', current_source_hash: 'h2' }, /^(workspace 'payroll' is not active|403 Forbidden)/],
      ['forget', { id: victim.id }, /not found/],
      ['remember', { content: 'summary', derived_from: [victim.id] }, /do not exist/],
    ];
    for (const intruder of [sameAccountOtherProject.key, otherAccount.key]) {
      for (const [tool, args, expected] of expectations) {
        const outcome = await rawToolCall(f.mcp.url, intruder, tool, args);
        expect(outcome.isError, `${tool} ${JSON.stringify(args)}`).toBe(true);
        expect(outcome.text).toMatch(expected);
      }
      const search = await rawToolCall(f.mcp.url, intruder, 'search', { query: 'victim payroll' });
      expect(JSON.stringify(search.structured ?? search.text)).not.toContain('victim');
    }
    // Same account, other project: the workspace is refused with the spec's 403 text.
    const forbidden = await rawToolCall(f.mcp.url, sameAccountOtherProject.key, 'search', { query: 'x', workspace: 'payroll' });
    expect(forbidden.text).toBe('403 Forbidden: workspace access denied for project');
    // Other account: a workspace of that name does not exist for it.
    const inactive = await rawToolCall(f.mcp.url, otherAccount.key, 'search', { query: 'x', workspace: 'payroll' });
    expect(inactive.text).toBe("workspace 'payroll' is not active");

    const after = await f.db.query('select id, deleted_at, superseded_by from records where id = any($1) order by id', [
      before.map((row) => (row as { id: string }).id),
    ]);
    expect(after).toEqual(before);
  });
});

describe('lone tool calls answered by one server', () => {
  it('keeps each call apart: two tenants sending at once under the same JSON-RPC ids get their own answers under their own ids', async () => {
    const a = await f.mcp.key('tenant-a', 'main');
    const b = await f.mcp.key('tenant-b', 'main');
    const send = async (key: string, id: number | string, args: Record<string, unknown>) => {
      const response = await fetch(f.mcp.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          authorization: `Bearer ${key}`,
        },
        body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'remember', arguments: args } }),
      });
      return (await response.json()) as {
        id: unknown;
        result?: { isError?: boolean; content?: Array<{ text?: string }>; structuredContent?: Rec };
      };
    };
    const calls = Array.from({ length: 24 }, (_, i) => {
      const tenant = i % 2 === 0 ? 'a' : 'b';
      const id = i % 3 === 0 ? 'same' : 1;
      // Every fourth call breaks the tool's input schema: the SDK's own error, under its own id too.
      const args = i % 4 === 3 ? { content: 42 } : { content: `fact ${tenant}${i}`, workspace: `ws-${tenant}` };
      return { tenant, id, args, answer: send(tenant === 'a' ? a.key : b.key, id, args) };
    });
    for (const call of calls) {
      const answer = await call.answer;
      expect(answer.id).toBe(call.id);
      if (typeof call.args.content === 'number') {
        expect(answer.result?.isError).toBe(true);
        expect(answer.result?.content?.[0]?.text).toMatch(/content/);
      } else {
        expect(answer.result?.structuredContent).toMatchObject({ content: call.args.content, workspace: `ws-${call.tenant}` });
      }
    }
    const stored = async (slug: string) =>
      (
        await f.db.query<{ content: string }>(
          `select r.content from records r join accounts a on a.id = r.account_id where a.slug = $1 and r.content like 'fact %' order by 1`,
          [slug],
        )
      ).map((row) => row.content);
    const expected = (tenant: string) =>
      calls
        .filter((call) => call.tenant === tenant && typeof call.args.content === 'string')
        .map((call) => String(call.args.content))
        .sort();
    expect(await stored('tenant-a')).toEqual(expected('a'));
    expect(await stored('tenant-b')).toEqual(expected('b'));
  });
});
