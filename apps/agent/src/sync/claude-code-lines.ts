import {
  isoTime,
  isRecord,
  summarizeToolCall,
  summarizeToolError,
  textOf,
  type ParsedLine,
  type SessionMessage,
} from './session-message.ts';

/**
 * One line of a Claude Code transcript (projects/<folder>/<session>.jsonl): `type` user or
 * assistant, with `message.content` a string or an array of text, thinking, tool_use and
 * tool_result blocks; sessionId, cwd, uuid and timestamp beside it. Summaries, snapshots and
 * meta lines carry no message.
 */
export function parseClaudeCodeLine(line: unknown): ParsedLine {
  if (!isRecord(line)) return { messages: [] };
  const parsed: ParsedLine = { messages: [] };
  const sessionId = textOf(line.sessionId);
  const cwd = textOf(line.cwd);
  if (sessionId !== undefined) parsed.sessionId = sessionId;
  if (cwd !== undefined) parsed.projectPath = cwd;
  const type = line.type;
  if ((type !== 'user' && type !== 'assistant') || line.isMeta === true || !isRecord(line.message))
    return parsed;
  const uuid = textOf(line.uuid);
  const at = isoTime(line.timestamp);
  if (uuid === undefined || at === undefined) return parsed;
  const role = type;
  const content = line.message.content;
  const blocks: unknown[] =
    typeof content === 'string' ? [{ type: 'text', text: content }] : Array.isArray(content) ? content : [];
  blocks.forEach((block, index) => {
    const message = messageOf(block, role);
    if (message) parsed.messages.push({ ...message, key: `${uuid}:${index}`, at });
  });
  return parsed;
}

function messageOf(
  block: unknown,
  role: 'user' | 'assistant',
): Pick<SessionMessage, 'role' | 'content'> | undefined {
  if (!isRecord(block)) return undefined;
  if (block.type === 'text') {
    const text = textOf(block.text)?.trim();
    return text ? { role, content: text } : undefined;
  }
  if (block.type === 'tool_use')
    return { role: 'tool', content: summarizeToolCall(textOf(block.name) ?? 'tool', block.input) };
  if (block.type === 'tool_result' && block.is_error === true)
    return { role: 'tool', content: summarizeToolError(block.content) };
  // thinking, images, and the output of tools that succeeded are not uploaded.
  return undefined;
}
