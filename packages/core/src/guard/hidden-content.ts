/**
 * Finds the parts of a record that a person looking at rendered text would not see but a model
 * reading the raw text would: HTML and markdown comments, elements styled invisible, attribute text
 * and pseudo-tags such as <instructions>. Elements and attributes are found by a scan, not by a
 * pattern that searches ahead for a closing tag from every opening one (quadratic on crafted text).
 */

const HTML_COMMENT = /<!--([\s\S]*?)(?:-->|$)/g;
// A value stops at any line end: `^` (with the m flag) also starts a line after \r, \u2028 and \u2029.
const MARKDOWN_COMMENT =
  /^[ \t]*\[(?:\/\/|comment|_[\w-]*|[#/]+)\]:[ \t]*(?:(?:#|<>)[ \t]*)?(?:\(([^)\n\r\u2028\u2029]*)\)|"([^"\n\r\u2028\u2029]*)"|'([^'\n\r\u2028\u2029]*)')/gm;
/** An opening tag's name; its attributes run to the next `>`. */
const OPENING_TAG = /<([a-z][a-z0-9-]*)(?![a-z0-9-])/gi;
const CLOSING_TAG = /<\/([a-z][a-z0-9-]*)\s*>/gi;
const HIDING_ATTRIBUTE =
  /display\s*:\s*none|visibility\s*:\s*hidden|font-size\s*:\s*0|opacity\s*:\s*0(?![.\d]*[1-9])|color\s*:\s*(?:white|#fff\b|#ffffff|transparent)|\bhidden\b|aria-hidden|left\s*:\s*-\d{3,}|sr-only|visually-hidden|(?:height|width)\s*:\s*0(?![.\d]*[1-9])/i;
const HIDDEN_ELEMENT =
  /^(?:script|style|template|noscript|instructions?|system|prompt|secret|hidden|admin|ai|assistant|llm)$/i;
/** `=` and an opening quote; the attribute's name is read backwards from the `=`. */
const ATTRIBUTE_VALUE_START = /=[ \t\r\n]*(["'])/g;
const TEXT_ATTRIBUTE_NAME = /^(?:alt|title|aria-label|aria-description|data-[\w-]+)$/i;
const NAME_CHAR = /[\w-]/;
const MAX_ATTRIBUTE_NAME = 64;

/** Whether the text can hide anything: a tag, an HTML comment or a markdown comment. */
export function mayHide(text: string): boolean {
  return text.includes('<') || text.includes(']:');
}

export function extractHiddenSegments(text: string): string[] {
  if (!mayHide(text)) return [];
  const segments: string[] = [];
  for (const match of text.matchAll(HTML_COMMENT)) push(segments, match[1]);
  for (const match of text.matchAll(MARKDOWN_COMMENT)) push(segments, match[1] ?? match[2] ?? match[3]);
  if (text.includes('<')) for (const inner of hiddenElements(text)) push(segments, inner);
  for (const value of textAttributes(text)) push(segments, value);
  return segments;
}

/** The text of each element hidden by its name or its style, up to its first closing tag. */
function hiddenElements(text: string): string[] {
  const closings = new Map<string, number[]>();
  for (const match of text.matchAll(CLOSING_TAG)) {
    const name = (match[1] ?? '').toLowerCase();
    const list = closings.get(name) ?? [];
    list.push(match.index);
    closings.set(name, list);
  }
  if (closings.size === 0) return [];
  const nextClosing = new Map<string, number>();
  const found: string[] = [];
  let tagEnd = -1;
  // An element found hides what it holds; tags inside it are part of its text, read with it.
  let inside = -1;
  for (const match of text.matchAll(OPENING_TAG)) {
    const name = (match[1] ?? '').toLowerCase();
    const list = closings.get(name);
    if (list === undefined || match.index < inside) continue;
    // The next `>` is looked up again only once the scan has passed the last one found.
    if (tagEnd < match.index) tagEnd = text.indexOf('>', match.index);
    if (tagEnd < 0) break;
    const attributes = text.slice(match.index + match[0].length, tagEnd);
    if (attributes.includes('<') || !(HIDDEN_ELEMENT.test(name) || HIDING_ATTRIBUTE.test(attributes))) continue;
    let at = nextClosing.get(name) ?? 0;
    while (at < list.length && (list[at] ?? 0) <= tagEnd) at += 1;
    nextClosing.set(name, at);
    const closing = list[at];
    if (closing === undefined) continue;
    found.push(text.slice(tagEnd + 1, closing));
    inside = closing;
  }
  return found;
}

/** The quoted values of alt, title, aria-label, aria-description and data-* attributes. */
function textAttributes(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(ATTRIBUTE_VALUE_START)) {
    let nameEnd = match.index;
    while (nameEnd > 0 && /\s/.test(text[nameEnd - 1] ?? '')) nameEnd -= 1;
    let nameStart = nameEnd;
    while (nameStart > 0 && nameEnd - nameStart <= MAX_ATTRIBUTE_NAME && NAME_CHAR.test(text[nameStart - 1] ?? ''))
      nameStart -= 1;
    if (!TEXT_ATTRIBUTE_NAME.test(text.slice(nameStart, nameEnd))) continue;
    const quote = match[1] ?? '"';
    const valueStart = match.index + match[0].length;
    const valueEnd = text.indexOf(quote, valueStart);
    if (valueEnd < 0) continue;
    found.push(text.slice(valueStart, valueEnd));
  }
  return found;
}

function push(segments: string[], segment: string | undefined): void {
  const trimmed = segment?.trim();
  if (trimmed) segments.push(trimmed);
}
