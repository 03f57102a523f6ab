import { eq } from 'drizzle-orm';
import { records, withTenant, type Db } from '@mmw/db';
import { z } from 'zod';
import type { Member } from '../orgs/member.ts';

export const firstMemorySchema = z.object({
  /** True once any record was saved in the account: the first-run check's "first memory received". */
  received: z.boolean(),
});

/**
 * Whether the account has received its first memory. One indexed row at most is read
 * (records_account_idx), whatever the account's size: the dashboard polls it while a person connects.
 */
export async function firstMemoryReceived(db: Db, member: Member): Promise<z.infer<typeof firstMemorySchema>> {
  const [row] = await withTenant(db, member.accountId, (tx) =>
    tx.select({ id: records.id }).from(records).where(eq(records.accountId, member.accountId)).limit(1),
  );
  return { received: row !== undefined };
}
