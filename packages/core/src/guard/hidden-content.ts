/**
 * Finds the parts of a record that a person looking at rendered text would not see but a model
 * reading the raw text would: HTML and markdown comments, elements styled invisible, attribute text
 * and pseudo-tags such as <instructions>.
 */

const HTML_COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;
const MARKDOWN_COMMENT =
  /^[ \t]*\[(?:\/\/|comment|_[\w-]*|[#/]+)\]:[ \t]*(?:#|<>)?[ \t]*(?:\(([^)\n]*)\)|"([^"\n]*)"|'([^'\n]*)')/gm;
const ELEMENT = /<([a-z][a-z0-9-]*)\b([^>]*)>([\s\S]*?)<\/\1\s*>/gi;
const HIDING_ATTRIBUTE =
  /display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?![.\d]*[1-9])|color\s*:\s*(?:white|#fff\b|#ffffff|transparent)|\bhidden\b|aria-hidden|left\s*:\s*-\d{3,}|sr-only|visually-hidden|(?:height|width)\s*:\s*0(?![.\d]*[1-9])/i;
const HIDDEN_ELEMENT =
  /^(?:script|style|template|noscript|instructions?|system|prompt|secret|hidden|admin|ai|assistant|llm)$/i;
const TEXT_ATTRIBUTE =
  /\b(?:alt|title|aria-label|aria-description|data-[\w-]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

export function extractHiddenSegments(text: string): string[] {
  if (!text.includes('<') && !text.includes(']:')) return [];
  const segments: string[] = [];
  for (const match of text.matchAll(HTML_COMMENT)) push(segments, match[1]);
  for (const match of text.matchAll(MARKDOWN_COMMENT)) push(segments, match[1] ?? match[2] ?? match[3]);
  for (const match of text.matchAll(ELEMENT)) {
    const [, tag = '', attributes = '', inner = ''] = match;
    if (HIDDEN_ELEMENT.test(tag) || HIDING_ATTRIBUTE.test(attributes)) push(segments, inner);
  }
  for (const match of text.matchAll(TEXT_ATTRIBUTE)) push(segments, match[1] ?? match[2]);
  return segments;
}

function push(segments: string[], segment: string | undefined): void {
  const trimmed = segment?.trim();
  if (trimmed) segments.push(trimmed);
}
