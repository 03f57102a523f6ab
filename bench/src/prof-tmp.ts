import { openPostgres } from '@mmw/db';
import { createBenchDatabase } from './bench-database.ts';
import { readSet } from './recall/recall-phase.ts';
import { provisionKey, searchRecords, createBuiltInExpander } from '@mmw/core';
const bench = await createBenchDatabase('postgres://postgres@127.0.0.1:5432/postgres', 'mmw_bench_i22_prof');
const database = openPostgres(bench.url, 4);
const set = readSet(process.argv[2] ?? 'team');
const key = await provisionKey(database.db, { account: 'p', project: 'main' });
const caller = { ...key, source: 'agent' as const };
const names = [...new Set(set.records.map(r=>r.workspace))];
const wss = await bench.admin<{id:string,name:string}>(`insert into workspaces (account_id, project_id, name) select $1,$2,unnest($3::text[]) returning id,name`, [key.accountId, key.projectId, names]);
const wid = new Map(wss.map(w=>[w.name,w.id]));
await bench.admin(`insert into records (account_id, project_id, workspace_id, author_user_id, content, source, source_id, updated_at) select $1,$2,w,$4,c,'agent',k, now() - (interval '1 minute' * (10000-o)) from unnest($3::uuid[], $5::text[], $6::text[]) with ordinality as r(w,c,k,o)`, [key.accountId, key.projectId, set.records.map(r=>wid.get(r.workspace)), key.userId, set.records.map(r=>r.content), set.records.map(r=>r.sourceId ?? r.key)]);
await bench.admin('analyze records');
const content = new Map(set.records.map(r=>[r.sourceId ?? r.key, r.content]));
const exp = createBuiltInExpander();
for (const q of set.questions.filter(q=>q.half==='tuning' && q.kind===(process.argv[3] ?? 'para')).slice(0, 30)) {
  const r = await searchRecords(database.db, caller, { query: q.text, workspace: q.workspace, limit: 10 }, exp);
  const rank = r.result.findIndex(x => q.answers.includes(x.source_id ?? ''));
  if (rank < 0 || rank > 4) console.log(`MISS ${q.text}\n   want: ${content.get(q.answers[0]!)}\n   got : ${r.result[0]?.content} (${r.result[0]?.score})  exp=${r.expanded_terms}`);
}
await database.close(); await bench.drop();
