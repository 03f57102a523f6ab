import { describe, expect, it } from 'vitest';
import { useMcp } from './fixtures.ts';

const f = useMcp('schemas-co', 'main');

/** Every place in a JSON Schema where `type` is an array or `nullable` is used, by path. */
function unportable(schema: unknown, path: string): string[] {
  if (Array.isArray(schema)) return schema.flatMap((item, i) => unportable(item, `${path}[${i}]`));
  if (typeof schema !== 'object' || schema === null) return [];
  const found: string[] = [];
  const node = schema as Record<string, unknown>;
  if (Array.isArray(node.type)) found.push(`${path}.type`);
  if ('nullable' in node) found.push(`${path}.nullable`);
  for (const [key, value] of Object.entries(node)) found.push(...unportable(value, `${path}.${key}`));
  return found;
}

describe('the tools\' schemas', () => {
  it('write a nullable parameter as anyOf branches of one type each, never a type array or nullable', async () => {
    const { tools } = await f.client.client.listTools();
    expect(tools.length).toBe(5);
    const problems = tools.flatMap((tool) => [
      ...unportable(tool.inputSchema, `${tool.name}.inputSchema`),
      ...unportable(tool.outputSchema, `${tool.name}.outputSchema`),
    ]);
    expect(problems).toEqual([]);
    const remember = tools.find((tool) => tool.name === 'remember');
    const factKey = (remember?.inputSchema.properties as Record<string, unknown>).fact_key;
    expect(factKey).toEqual({
      description: expect.any(String) as string,
      anyOf: [{ type: 'string' }, { type: 'null' }],
    });
  });

  it('still take null, and still refuse a value of the wrong type', async () => {
    const saved = await f.client.call('remember', { content: 'nullable: the wiki moved', fact_key: null, confidence: null });
    expect(saved.isError).toBe(false);
    const wrong = await f.client.call('remember', { content: 'nullable: wrong type', fact_key: 42 });
    expect(wrong.isError).toBe(true);
    expect(wrong.text).toMatch(/fact_key/);
  });
});
