export async function guardRecord<T extends Record<string, string | null | undefined>>(fields: T): Promise<{ fields: T }> {
  return { fields };
}
