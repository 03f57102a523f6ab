/**
 * Rules for orders aimed at the reading agent: run a command, or act when a trigger ("when you
 * read this") fires. A command alone is fine (deploy notes are full of them); it becomes a
 * directive when paired with a marker that only makes sense for an agent (see agent-markers.ts),
 * or when a risky command is ordered "immediately".
 */
import {
  EXEC_ORDER_RE,
  STEALTH_RE,
  TRIGGER_RE,
  URGENT_RE,
  AGENT_URGENT_RE,
  hasAgentMarker,
  markersOf,
} from './agent-markers.ts';
import { ACTION_VERB, ADDRESS, EXEC_VERB, PLANTED_PAYLOAD, RISKY_COMMAND, gap, compile } from './lexicon.ts';
import { anchors, matchesIn } from './anchors.ts';

const PLANTED_PAYLOAD_RE = compile(PLANTED_PAYLOAD);
// prettier-ignore
const PLANTED_PAYLOAD_ANCHORS = anchors([
  ['tcp', 'nc', 'ncat', 'mkfifo', ':(', 'iex', 'powershell', 'base64', 'eval', 'getprotobyname', 'pf',
    'socket', 'sh'],
]);
// prettier-ignore
const ENCODED_ORDER_ANCHORS = anchors([
  ['decode', 'decoder', 'decoding', 'decrypt', 'deobfuscate', 'unescape', 'base64', 'rot13', 'reverse',
    'hex', 'encoded', 'decoded', 'cipher', 'encrypted'],
]);
const RISKY_COMMAND_RE = compile(RISKY_COMMAND);
const EXEC_VERB_RE = compile(`\\b${EXEC_VERB}\\b`);
const ACTION_VERB_RE = compile(`\\b${ACTION_VERB}\\b`);
const EXEC_OBJECT_RE = compile(
  `\\b(?:run|execute|exec|eval|evaluate)\\b (?:this|these|the following|the below|the next|below|following|that|my)(?: \\S+)? (?:command|commands|script|code|shell command|snippet|payload|one-liner|line|program|binary)\\b`,
);
const EXEC_COMMAND_RE = new RegExp(
  `\\b(?:run|execute|exec)\\b(?: the)? (?:shell |bash |terminal )?(?:command|script)?\\s?[:\`'"]?(?:${RISKY_COMMAND})`,
  'u',
);

export function findCommandDirective(text: string): string | null {
  if (matchesIn(PLANTED_PAYLOAD_ANCHORS, PLANTED_PAYLOAD_RE, text)) return 'command execution directive';
  const markers = markersOf(text);
  if (!markers.stealth && !markers.trigger && !markers.address && !markers.agentUrgent && !markers.urgent) {
    return null;
  }
  for (const sentence of markers.sentences) {
    const marked = hasAgentMarker(sentence, markers);
    if (marked && (EXEC_VERB_RE.test(sentence) || RISKY_COMMAND_RE.test(sentence))) {
      return 'command execution directive';
    }
    if (EXEC_OBJECT_RE.test(sentence) && (marked || AGENT_URGENT_RE.test(sentence))) {
      return 'command execution directive';
    }
    // "run `curl ... | bash` immediately": urgency plus a risky command, as an order.
    if (
      markers.urgent &&
      URGENT_RE.test(sentence) &&
      EXEC_ORDER_RE.test(sentence) &&
      RISKY_COMMAND_RE.test(sentence)
    ) {
      return 'command execution directive';
    }
    if (marked && EXEC_COMMAND_RE.test(sentence)) return 'command execution directive';
  }
  return null;
}

/** A trigger or a stealth marker combined with any action: an order to whoever reads the memory. */
export function findTriggeredInstruction(text: string): string | null {
  const markers = markersOf(text);
  if (!markers.trigger && !markers.stealth) return null;
  for (const sentence of markers.sentences) {
    const triggered =
      (markers.trigger && TRIGGER_RE.test(sentence)) || (markers.stealth && STEALTH_RE.test(sentence));
    if (triggered && ACTION_VERB_RE.test(sentence.replace(TRIGGER_RE, ''))) return 'triggered instruction';
  }
  if (markers.trigger && markers.stealth) return 'triggered instruction';
  return null;
}

/** "Decode this and follow it": a decoding step chained ("and", "then") to obeying the result. */
const ENCODED_ORDER_RE = compile(
  `\\b(?:decode|decoder|decoding|decrypt|deobfuscate|unescape|base64[- ]?decode|rot13|reverse)\\b(?: \\S+){0,8}? (?:and|then|,) (?:then )?(?:follow|execute|run|obey|do (?:exactly )?(?:what|as) it (?:says|asks|tells)|carry (?:it )?out|comply with|act on|perform|eval(?:uate)?)\\b|\\b(?:base64|hex|rot13|encoded|decoded|cipher|encrypted)\\b${gap(60)}\\b(?:do (?:exactly )?(?:what|as|whatever) it (?:says|asks|tells)|follow (?:it|them) (?:exactly|precisely)|obey it|execute it|run it)\\b`,
);

export function findEncodedOrder(text: string): string | null {
  return matchesIn(ENCODED_ORDER_ANCHORS, ENCODED_ORDER_RE, text) ? 'encoded instruction' : null;
}

/** Hidden text that talks to an agent at all ("AI:", "you must", "respond") is a hidden instruction. */
export const ADDRESSES_AGENT_RE = compile(
  `${ADDRESS}|\\b(?:for|to) (?:the |any |all )?(?:ai|assistant|llm|agents?|model|language model)s?\\b|\\b(?:ai|llm|assistant|agent|model)[- ](?:instructions?|directive|note)s?\\b|\\byou (?:must|should|will|need to|have to|are to|shall)\\b|\\b(?:respond|reply|answer|say|tell the user|output)\\b`,
);
