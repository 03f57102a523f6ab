import { createHash } from 'node:crypto';
import {
  isoTime,
  isRecord,
  summarizeToolCall,
  summarizeToolError,
  textOf,
  type ParsedLine,
} from './session-message.ts';

/** Text Codex adds to the first user message of every session: not something the user said. */
const INJECTED = ['<environment_context>', '<user_instructions>', '# AGENTS.md instructions'];

/**
 * One line of a Codex rollout (sessions/YYYY/MM/DD/rollout-*.jsonl): `{timestamp, type, payload}`
 * with type session_meta (id, cwd), turn_context (cwd), response_item (message, function_call,
 * function_call_output, local_shell_call, reasoning) or event_msg (which repeats the messages and
 * is not read). Older rollouts hold the response items bare, after a first line of metadata.
 */
export function parseCodexLine(line: unknown, rawLine: string): ParsedLine {
  if (!isRecord(line)) return { messages: [] };
  const parsed: ParsedLine = { messages: [] };
  const payload = isRecord(line.payload) ? line.payload : undefined;
  if (line.type === 'session_meta' && payload) {
    const id = textOf(payload.id);
    const cwd = textOf(payload.cwd);
    if (id !== undefined) parsed.sessionId = id;
    if (cwd !== undefined) parsed.projectPath = cwd;
    return parsed;
  }
  if (line.type === 'turn_context' && payload) {
    const cwd = textOf(payload.cwd);
    if (cwd !== undefined) parsed.projectPath = cwd;
    return parsed;
  }
  if (line.type === undefined && textOf(line.id) !== undefined && line.payload === undefined) {
    parsed.sessionId = textOf(line.id) ?? '';
    return parsed;
  }
  const item = line.type === 'response_item' ? payload : line.payload === undefined ? line : undefined;
  const at = isoTime(line.timestamp) ?? isoTime(item?.timestamp);
  if (!item || at === undefined) return parsed;
  const key = createHash('sha256').update(rawLine).digest('hex').slice(0, 40);
  const content = contentOf(item);
  if (content) parsed.messages.push({ key, at, ...content });
  return parsed;
}

function contentOf(
  item: Record<string, unknown>,
): { role: 'user' | 'assistant' | 'tool'; content: string } | undefined {
  if (item.type === 'message' && (item.role === 'user' || item.role === 'assistant')) {
    const parts = Array.isArray(item.content) ? item.content : [];
    const text = parts
      .map((part) =>
        isRecord(part) && (part.type === 'input_text' || part.type === 'output_text')
          ? (textOf(part.text) ?? '')
          : '',
      )
      .join('\n')
      .trim();
    if (text === '' || INJECTED.some((marker) => text.startsWith(marker))) return undefined;
    return { role: item.role, content: text };
  }
  if (item.type === 'function_call' || item.type === 'custom_tool_call')
    return {
      role: 'tool',
      content: summarizeToolCall(textOf(item.name) ?? 'tool', item.arguments ?? item.input),
    };
  if (item.type === 'local_shell_call' && isRecord(item.action))
    return { role: 'tool', content: summarizeToolCall('shell', item.action) };
  if (item.type === 'function_call_output' && isRecord(item.output) && item.output.success === false)
    return { role: 'tool', content: summarizeToolError(item.output.content) };
  // reasoning (encrypted) and successful tool output are not uploaded.
  return undefined;
}
