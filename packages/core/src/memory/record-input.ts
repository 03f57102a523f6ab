import { z } from 'zod';
import { AppError } from '../errors.ts';

export const CONTENT_MAX_LENGTH = 20_000;
export const DERIVED_FROM_MAX = 50;
export const DEFAULT_WORKSPACE = 'default';
const FIELD_MAX_LENGTH = {
  fact_key: 200,
  source_id: 1_000,
  source_hash: 200,
  source_revision: 200,
  scope: 100,
};
const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The shape of remember's arguments; ranges are checked by validateRememberInput with clear texts. */
export const rememberInputShape = {
  content: z.string().describe('The fact, decision or agreement, in one or a few self-contained sentences.'),
  workspace: z
    .string()
    .optional()
    .describe('Workspace to save into; "default" when omitted. Created on first write.'),
  fact_key: z
    .string()
    .nullish()
    .describe(
      'Stable topic key such as "deploy-staging". Saving again with the same key adds a newer version and keeps the old one.',
    ),
  source_id: z
    .string()
    .nullish()
    .describe('Where the fact came from: a document path, URL, file or session id.'),
  source_hash: z
    .string()
    .nullish()
    .describe(
      'Hash of the source content when the fact was taken (requires source_id), e.g. "sha256:9f2c…".',
    ),
  source_revision: z.string().nullish().describe('Revision of the source, e.g. a git commit.'),
  confidence: z.number().nullish().describe('Confidence from 0 to 1; default 0.5.'),
  derived_from: z
    .array(z.string())
    .nullish()
    .describe('IDs of existing records this one summarizes (at most 50).'),
  scope: z
    .string()
    .nullish()
    .describe('A label for filtering, such as "shared" or "private". It does not restrict access.'),
};

export type RememberInput = z.infer<z.ZodObject<typeof rememberInputShape>>;

export interface ValidRememberInput {
  content: string;
  workspace: string;
  factKey: string | null;
  sourceId: string | null;
  sourceHash: string | null;
  sourceRevision: string | null;
  confidence: number;
  derivedFrom: string[];
  scope: string | null;
}

const invalid = (message: string) => new AppError('invalid_input', message);

function optionalText(name: keyof typeof FIELD_MAX_LENGTH, value: string | null | undefined): string | null {
  if (value === undefined || value === null) return null;
  const text = value.trim();
  assertNoNul(name, text);
  if (text.length > FIELD_MAX_LENGTH[name]) {
    throw invalid(`${name} is too long: at most ${FIELD_MAX_LENGTH[name]} characters`);
  }
  return text === '' ? null : text;
}

export function assertNoNul(name: string, value: string): void {
  if (value.includes('\u0000')) throw invalid(`${name} must not contain NUL characters`);
}

export function validateWorkspaceName(value: string | null | undefined): string {
  const name = (value ?? DEFAULT_WORKSPACE).trim();
  assertNoNul('workspace', name);
  if (name.length === 0 || name.length > 100 || /[\p{Cc}]/u.test(name)) {
    throw invalid('workspace must be a name of 1 to 100 printable characters');
  }
  return name;
}

export function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/** Step 1 of "What happens after remember": every check, each with its own clear error. */
export function validateRememberInput(input: RememberInput): ValidRememberInput {
  assertNoNul('content', input.content);
  const content = input.content.trim();
  if (content.length === 0) throw invalid('content must not be empty');
  if (content.length > CONTENT_MAX_LENGTH) {
    throw invalid(`content is too long: ${content.length} characters, at most ${CONTENT_MAX_LENGTH}`);
  }
  const sourceId = optionalText('source_id', input.source_id);
  const sourceHash = optionalText('source_hash', input.source_hash);
  if (sourceHash !== null && sourceId === null) throw invalid('source_hash requires source_id');
  const confidence = input.confidence ?? 0.5;
  if (!Number.isFinite(confidence) || confidence < 0 || confidence > 1) {
    throw invalid('confidence must be between 0 and 1');
  }
  const derivedFrom = [...new Set((input.derived_from ?? []).map((id) => id.trim().toLowerCase()))];
  if (derivedFrom.length > DERIVED_FROM_MAX) {
    throw invalid(`derived_from accepts at most ${DERIVED_FROM_MAX} IDs`);
  }
  const malformed = derivedFrom.filter((id) => !isUuid(id));
  if (malformed.length > 0) throw unknownDerivedFrom(malformed);
  return {
    content,
    workspace: validateWorkspaceName(input.workspace),
    factKey: optionalText('fact_key', input.fact_key),
    sourceId,
    sourceHash,
    sourceRevision: optionalText('source_revision', input.source_revision),
    confidence,
    derivedFrom,
    scope: optionalText('scope', input.scope),
  };
}

export function unknownDerivedFrom(ids: string[]): AppError {
  const shown = ids.slice(0, 5).map((id) => id.slice(0, 40));
  return invalid(`derived_from references records that do not exist: ${shown.join(', ')}`);
}
