import { z } from 'zod';

/** Where an OpenAI-compatible chat completions API lives (MMW_MODEL_URL, MMW_MODEL_API_KEY, MMW_MODEL). */
export interface ModelEndpoint {
  /** Base URL; `/chat/completions` is appended. */
  url: string;
  apiKey: string;
  model: string;
  timeoutMs: number;
}

export interface ChatMessage {
  role: 'system' | 'user';
  content: string;
}

export type ModelFailure = 'timeout' | 'http' | 'network' | 'malformed' | 'refusal' | 'schema';

/** Why a model call gave no usable answer. The message never carries the model's output. */
export class ModelCallError extends Error {
  readonly failure: ModelFailure;

  constructor(failure: ModelFailure, message: string) {
    super(message);
    this.name = 'ModelCallError';
    this.failure = failure;
  }
}

const envelopeSchema = z.object({
  choices: z
    .array(
      z.object({
        message: z.object({
          content: z.string().nullable().optional(),
          refusal: z.string().nullable().optional(),
        }),
        finish_reason: z.string().nullable().optional(),
      }),
    )
    .min(1),
});

/**
 * One chat completion in JSON mode, parsed. Throws ModelCallError on a timeout (the whole call,
 * body included), a non-2xx status, a network error, a refusal, or an answer that is not JSON.
 */
export async function requestJsonCompletion(
  endpoint: ModelEndpoint,
  messages: ChatMessage[],
): Promise<unknown> {
  const signal = AbortSignal.timeout(endpoint.timeoutMs);
  try {
    const response = await fetch(`${trimTrailing(endpoint.url, '/')}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${endpoint.apiKey}` },
      body: JSON.stringify({
        model: endpoint.model,
        messages,
        temperature: 0,
        response_format: { type: 'json_object' },
      }),
      signal,
    });
    if (!response.ok) {
      await response.body?.cancel().catch(() => undefined);
      throw new ModelCallError('http', `http ${response.status}`);
    }
    const envelope = envelopeSchema.safeParse(await readJson(response));
    if (!envelope.success) throw new ModelCallError('malformed', 'malformed response envelope');
    const [choice] = envelope.data.choices;
    const content = choice?.message.content;
    const refused = (choice?.message.refusal ?? '') !== '' || choice?.finish_reason === 'content_filter';
    if (refused || content === null || content === undefined || content.trim() === '') {
      throw new ModelCallError('refusal', 'the model refused or gave no content');
    }
    return parseJsonContent(content);
  } catch (error) {
    if (error instanceof ModelCallError) throw error;
    if (signal.aborted) throw new ModelCallError('timeout', `no answer within ${endpoint.timeoutMs} ms`);
    throw new ModelCallError('network', 'the model endpoint could not be reached');
  }
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new ModelCallError('malformed', 'the response body is not JSON');
  }
}

/** The answer's JSON, tolerating a Markdown code fence around it. */
function parseJsonContent(content: string): unknown {
  try {
    return JSON.parse(unfenced(content)) as unknown;
  } catch {
    throw new ModelCallError('malformed', 'the answer is not JSON');
  }
}

/** Records as a JSON block the prompt can quote: no "<" so the data cannot close its own tag. */
export function quoteAsData(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/</g, '\\u003c');
}

/** The text inside a ``` fence (with an optional json tag) around the whole answer; else the answer. */
function unfenced(content: string): string {
  const trimmed = content.trim();
  if (trimmed.length < 6 || !trimmed.startsWith('```') || !trimmed.endsWith('```')) return content;
  const inner = trimmed.slice(3, -3);
  return (inner.slice(0, 4).toLowerCase() === 'json' ? inner.slice(4) : inner).trim();
}

function trimTrailing(text: string, char: string): string {
  let end = text.length;
  while (end > 0 && text[end - 1] === char) end -= 1;
  return text.slice(0, end);
}
