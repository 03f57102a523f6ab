import pg from 'pg';
import { generateRecord, type GeneratedRecord } from './corpus.ts';
import { randomFor } from './random.ts';

export interface Tenant {
  accountId: string;
  projectId: string;
  userId: string;
  keyId: string;
  /** Workspace ids by corpus index; 0 is the searched one. */
  workspaceIds: string[];
}

const BATCH = 5_000;
const TABLES = ['records', 'record_relations'] as const;

/**
 * Loads records [from, to) of the corpus as the superuser, past row-level security: multi-row
 * INSERTs through unnest with the secondary indexes dropped, then the indexes rebuilt exactly as
 * the migrations define them, and ANALYZE. About half the records get a relates_to edge to the
 * previous record of their workspace, as the archivist would have left.
 */
export class BulkLoader {
  private readonly lastInWorkspace = new Map<number, string>();
  /** The rare words of each record of workspace 0 loaded so far: rare-word queries known to match. */
  readonly searchedRareWords: string[][] = [];

  constructor(
    private readonly url: string,
    private readonly tenant: Tenant,
  ) {}

  /**
   * With `stale`, the indexes stay in place and nothing is analysed or vacuumed: the table grows as
   * a tenant's burst of writes grows it before autovacuum comes by.
   */
  async load(
    from: number,
    to: number,
    onProgress?: (done: number) => void,
    { stale = false }: { stale?: boolean } = {},
  ): Promise<void> {
    const client = new pg.Client({ connectionString: this.url });
    await client.connect();
    try {
      await client.query(`set maintenance_work_mem = '512MB'`);
      // Foreign keys are known to hold: skip their per-row triggers in this session only.
      await client.query(`set session_replication_role = replica`);
      const indexes = stale
        ? { rows: [] }
        : await client.query<{ indexname: string; indexdef: string }>(
            `select indexname, indexdef from pg_indexes
              where schemaname = 'public' and tablename = any($1) and indexname not like '%_pkey'`,
            [TABLES],
          );
      for (const index of indexes.rows) await client.query(`drop index ${index.indexname}`);
      for (let start = from; start < to; start += BATCH) {
        await this.insertBatch(client, start, Math.min(to, start + BATCH));
        onProgress?.(Math.min(to, start + BATCH) - from);
      }
      // Remember keeps one current version per fact_key: the older ones point to the newest.
      await client.query(
        `update records r set superseded_by = v.newest
           from (select workspace_id, fact_key, (array_agg(id order by updated_at desc))[1] as newest
                   from records where fact_key is not null and deleted_at is null group by 1, 2) v
          where r.workspace_id = v.workspace_id and r.fact_key = v.fact_key and r.id <> v.newest
            and r.superseded_by is distinct from v.newest`,
      );
      for (const index of indexes.rows) await client.query(index.indexdef);
      await client.query(`set session_replication_role = origin`);
      await client.query(
        `insert into account_usage (account_id, record_count)
           select $1, count(*) from records where account_id = $1 and deleted_at is null
         on conflict (account_id) do update set record_count = excluded.record_count`,
        [this.tenant.accountId],
      );
      if (stale) return;
      for (const table of [...TABLES, 'workspaces']) await client.query(`vacuum analyze ${table}`);
      // The load's WAL written out now: the checkpoint it calls for does not run during the measures.
      await client.query('checkpoint');
    } finally {
      await client.end();
    }
  }

  private async insertBatch(client: pg.Client, from: number, to: number): Promise<void> {
    const rows: GeneratedRecord[] = [];
    for (let i = from; i < to; i++) rows.push(generateRecord(i));
    const t = this.tenant;
    const workspaceOf = (row: GeneratedRecord) => t.workspaceIds[row.workspace] ?? '';
    await client.query(
      `insert into records (id, account_id, project_id, workspace_id, author_user_id, key_id, content, source,
                            source_id, fact_key, scope, created_at, updated_at)
       select id, $1, $2, workspace_id, $3, $4, content, 'agent', source_id, fact_key, scope, at, at
         from unnest($5::uuid[], $6::uuid[], $7::text[], $8::text[], $9::text[], $10::text[], $11::timestamptz[])
           as r(id, workspace_id, content, source_id, fact_key, scope, at)`,
      [
        t.accountId,
        t.projectId,
        t.userId,
        t.keyId,
        rows.map((row) => row.id),
        rows.map(workspaceOf),
        rows.map((row) => row.content),
        rows.map((row) => row.sourceId),
        rows.map((row) => row.factKey),
        rows.map((row) => row.scope),
        rows.map((row) => row.updatedAt.toISOString()),
      ],
    );
    const edges: Array<{ from: string; to: string; workspaceId: string; weight: number }> = [];
    rows.forEach((row, offset) => {
      const previous = this.lastInWorkspace.get(row.workspace);
      const random = randomFor('edge', from + offset);
      if (previous !== undefined && random() < 0.5) {
        edges.push({
          from: row.id,
          to: previous,
          workspaceId: workspaceOf(row),
          weight: 0.4 + random() * 0.5,
        });
      }
      this.lastInWorkspace.set(row.workspace, row.id);
      if (row.workspace === 0) this.searchedRareWords.push(row.rareWords);
    });
    await client.query(
      `insert into record_relations (account_id, workspace_id, from_record_id, to_record_id, relation, weight, reason)
       select $1, workspace_id, from_id, to_id, 'relates_to', weight, 'same topic'
         from unnest($2::uuid[], $3::uuid[], $4::uuid[], $5::float8[]) as e(workspace_id, from_id, to_id, weight)`,
      [
        t.accountId,
        edges.map((edge) => edge.workspaceId),
        edges.map((edge) => edge.from),
        edges.map((edge) => edge.to),
        edges.map((edge) => edge.weight),
      ],
    );
  }
}
