/**
 * Decides whether a memory reads as an attempt to instruct the agent that will later read it.
 * Judging happens on normalized text (see normalize.ts); hidden parts, smuggled and encoded
 * payloads are judged on their own so the reason can say how the instruction was hidden.
 */
import { decodePayloads } from './decode-payloads.ts';
import {
  ADDRESSES_AGENT_RE,
  findCommandDirective,
  findEncodedOrder,
  findTriggeredInstruction,
} from './directive-rules.ts';
import { findPromptExfiltration, findSecretExfiltration } from './exfiltration-rules.ts';
import { extractHiddenSegments } from './hidden-content.ts';
import { findMultilingualInstruction } from './multilingual-rules.ts';
import { normalizeForGuard, plainView, revealText } from './normalize.ts';
import { findOverride } from './override-rules.ts';
import { findRoleChange } from './role-rules.ts';
import { findToolDirective } from './tool-rules.ts';

export interface PlantedInstruction {
  /** A short phrase for the person, e.g. "role change"; never the offending text. */
  readonly reason: string;
}

const CHECKS: ReadonlyArray<(text: string) => string | null> = [
  findOverride,
  findRoleChange,
  findPromptExfiltration,
  findSecretExfiltration,
  findToolDirective,
  findCommandDirective,
  findEncodedOrder,
  findTriggeredInstruction,
  findMultilingualInstruction,
];

/** Decoded payloads are decoded once more, for base64 inside hex and the like. */
const DECODE_DEPTH = 2;

function judge(normalizedText: string): string | null {
  for (const check of CHECKS) {
    const reason = check(normalizedText);
    if (reason !== null) return reason;
  }
  return null;
}

/** Separate pieces (hidden segments, decoded payloads) are judged together, as sentences of one text. */
const PIECE_SEPARATOR = '.\n';

function judgeHidden(segments: readonly string[]): boolean {
  if (segments.length === 0) return false;
  const text = normalizeForGuard(segments.join(PIECE_SEPARATOR)).text;
  return judge(text) !== null || ADDRESSES_AGENT_RE.test(text);
}

function hasEncodedInstruction(text: string, depth: number): boolean {
  const decoded = decodePayloads(text);
  if (decoded.length === 0) return false;
  const joined = decoded.join(PIECE_SEPARATOR);
  if (judge(normalizeForGuard(joined).text) !== null) return true;
  return depth > 1 && hasEncodedInstruction(joined, depth - 1);
}

export function detectPlantedInstruction(text: string): PlantedInstruction | null {
  if (text.trim() === '') return null;
  const revealed = revealText(text);
  if (judgeHidden(extractHiddenSegments(revealed))) return { reason: 'hidden instruction' };

  const normalized = normalizeForGuard(text);
  if (normalized.smuggled !== '' && judgeHidden([normalized.smuggled]))
    return { reason: 'hidden instruction' };

  const reason = judge(normalized.text);
  if (reason !== null) {
    return { reason: judge(plainView(text)) !== null ? reason : 'obfuscated instruction' };
  }
  if (normalized.reversed !== null && judge(normalized.reversed) !== null) {
    return { reason: 'obfuscated instruction' };
  }
  if (hasEncodedInstruction(revealed, DECODE_DEPTH)) return { reason: 'encoded instruction' };
  return null;
}
