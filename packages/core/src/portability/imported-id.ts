import { createHash } from 'node:crypto';

/**
 * The id an imported record gets: a name-based UUID (version 5 layout) of the importing account,
 * the exporting instance and account, and the original id. The same file imported again gives the
 * same ids, so references (derived_from, superseded_by, relations) can be rewritten as a line is
 * read, before the record they point at has arrived, and a second import finds every record present.
 */
export function importedRecordId(accountId: string, source: string, originalId: string): string {
  const hash = createHash('sha1').update(`${accountId}\n${source}\n${originalId.toLowerCase()}`).digest().subarray(0, 16);
  hash.writeUInt8((hash.readUInt8(6) & 0x0f) | 0x50, 6);
  hash.writeUInt8((hash.readUInt8(8) & 0x3f) | 0x80, 8);
  const hex = hash.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
