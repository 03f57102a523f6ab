import type { StandardSchemaWithJSON } from '@modelcontextprotocol/server';

type Json = unknown;

/** Keywords that describe a value rather than constrain it: they stay beside the `anyOf`. */
const ANNOTATIONS = new Set(['$schema', 'title', 'description', 'default', 'examples', 'deprecated', 'readOnly', 'writeOnly']);

/**
 * The schema with every `type` array (zod writes a nullable string as `"type": ["string", "null"]`)
 * split into `anyOf` branches of a single `type` each, the constraints going with their own type, so
 * that clients mapping tool schemas onto a single-type dialect take them (the MCP Inspector's
 * `--strict` portability check). It walks every nested schema; nothing else changes.
 */
export function splitTypeArrays(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(splitTypeArrays);
  if (typeof schema !== 'object' || schema === null) return schema;
  const walked: Record<string, Json> = {};
  for (const [key, value] of Object.entries(schema)) walked[key] = splitTypeArrays(value);
  if (!Array.isArray(walked.type)) return walked;
  const types: unknown[] = walked.type;
  const outside: Record<string, Json> = {};
  const inside: Record<string, Json> = {};
  for (const [key, value] of Object.entries(walked)) {
    if (key === 'type') continue;
    if (ANNOTATIONS.has(key)) outside[key] = value;
    else inside[key] = value;
  }
  if (types.length === 1) return { ...outside, type: types[0], ...inside };
  return { ...outside, anyOf: types.map((type: unknown) => (type === 'null' ? { type } : { type, ...inside })) };
}

/**
 * A zod (or any Standard JSON Schema) schema whose JSON Schema is written portably
 * (splitTypeArrays); validation and types stay the schema's own.
 */
export function portable<S extends StandardSchemaWithJSON>(schema: S): S {
  const standard = schema['~standard'];
  const jsonSchema = {
    input: (options: Parameters<typeof standard.jsonSchema.input>[0]) =>
      splitTypeArrays(standard.jsonSchema.input(options)) as Record<string, unknown>,
    output: (options: Parameters<typeof standard.jsonSchema.output>[0]) =>
      splitTypeArrays(standard.jsonSchema.output(options)) as Record<string, unknown>,
  };
  return { '~standard': { ...standard, jsonSchema } } as unknown as S;
}
