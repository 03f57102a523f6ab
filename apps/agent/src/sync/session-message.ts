/** A message read from a session file, before redaction. */
export interface SessionMessage {
  /** Stable for the same message however often it is read: the server stores a key once per session. */
  key: string;
  role: 'user' | 'assistant' | 'tool';
  content: string;
  at: string;
}

/** What one line of a session file tells: messages, and the session's id and folder when it says them. */
export interface ParsedLine {
  sessionId?: string;
  projectPath?: string;
  messages: SessionMessage[];
}

const MAX_CONTENT_CHARS = 15_000;
const SUMMARY_CHARS = 300;

export function clip(text: string, max = MAX_CONTENT_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max)}…`;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export const textOf = (value: unknown): string | undefined => (typeof value === 'string' ? value : undefined);

/** A timestamp as ISO text, or undefined when it is not one. */
export function isoTime(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? undefined : time.toISOString();
}

/**
 * A tool call in one line: its name and the input field that says what it did (a command, a file,
 * a pattern), never its whole input or its output.
 */
export function summarizeToolCall(name: string, input: unknown): string {
  let parsed = input;
  if (typeof input === 'string') {
    try {
      parsed = JSON.parse(input) as unknown;
    } catch {
      parsed = { input };
    }
  }
  const fields = isRecord(parsed) ? parsed : {};
  const telling = ['command', 'cmd', 'file_path', 'path', 'pattern', 'url', 'query', 'description', 'input']
    .map((field) => fields[field])
    .find((value) => typeof value === 'string' || Array.isArray(value));
  const detail = Array.isArray(telling) ? telling.map(String).join(' ') : (textOf(telling) ?? '');
  return clip(`[tool call] ${name}${detail === '' ? '' : `: ${detail}`}`, SUMMARY_CHARS);
}

/** A tool's failure, briefly: the output of a tool that succeeded is not uploaded. */
export function summarizeToolError(output: unknown): string {
  const text =
    typeof output === 'string'
      ? output
      : Array.isArray(output)
        ? output.map((part) => (isRecord(part) ? (textOf(part.text) ?? '') : '')).join(' ')
        : '';
  return clip(`[tool error] ${text.trim()}`, SUMMARY_CHARS);
}
