/**
 * True when the database refused a write because it would break the named unique index: the
 * statement that lost a race. The driver's error may sit under drizzle's (in its cause).
 */
export function violatesUniqueIndex(error: unknown, index: string): boolean {
  for (let current: unknown = error, depth = 0; depth < 5 && typeof current === 'object' && current !== null; depth += 1) {
    if ('code' in current && current.code === '23505' && 'constraint' in current && current.constraint === index) return true;
    current = 'cause' in current ? current.cause : undefined;
  }
  return false;
}
