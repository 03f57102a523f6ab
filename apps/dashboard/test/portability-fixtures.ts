import type { DashboardClient } from './dashboard-client.ts';

/** The whole export through the tRPC door, page by page, as the web UI joins it. */
export async function exportThrough(
  client: DashboardClient,
  accountId: string,
  scope: { project?: string; workspace?: string } = {},
): Promise<string> {
  let text = '';
  let cursor: Parameters<DashboardClient['portability']['exportPage']['query']>[0]['cursor'] = null;
  for (let page = 0; page < 1000; page += 1) {
    const answer = await client.portability.exportPage.query({ accountId, ...scope, cursor });
    text += answer.text;
    cursor = answer.next;
    if (cursor === null) return text;
  }
  throw new Error('the export did not end within 1000 pages');
}

export type Line = Record<string, unknown> & { type?: string; id?: string };

export function linesOf(text: string): Line[] {
  return text
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as Line);
}

/**
 * An export with every id written back to the original one through the mapping (new id -> original
 * id), without what differs between two exports by nature (the time it was made, the source account),
 * its lines sorted: two exports of the same memory compare equal.
 */
export function comparable(text: string, originalOf: Map<string, string> = new Map()): Line[] {
  const back = (id: unknown) => (typeof id === 'string' ? (originalOf.get(id) ?? id) : id);
  const lines = linesOf(text).map((line) => {
    if (line.format !== undefined) return { format: line.format, version: line.version, scope: line.scope };
    const copy: Line = { ...line };
    for (const field of ['id', 'superseded_by', 'from', 'to']) if (field in copy) copy[field] = back(copy[field]);
    if (Array.isArray(copy.derived_from)) copy.derived_from = copy.derived_from.map(back);
    return copy;
  });
  const key = (line: Line) => JSON.stringify([line.type ?? '', line.id ?? '', line.from ?? '', line.to ?? '']);
  return lines.sort((a, b) => key(a).localeCompare(key(b)));
}
