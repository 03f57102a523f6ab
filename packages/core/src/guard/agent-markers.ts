/**
 * Markers that a sentence is meant for an agent rather than a person: stealth ("without telling
 * the user"), a trigger ("when you read this"), an address ("Assistant:"), or urgency tied to a
 * conversation ("before answering"). They are found once per text; sentence-level checks only run
 * when the whole text has a marker at all, which keeps ordinary notes cheap.
 */
import {
  ACTION_VERB,
  ADDRESS,
  ADDRESS_FAST,
  AGENT_URGENT,
  EXEC_VERB,
  STEALTH,
  STEALTH_OTHER,
  STEALTH_ADVERB,
  STEALTH_VERB,
  TRIGGER,
  TRIGGER_FAST,
  URGENT,
  order,
  compile,
} from './lexicon.ts';
import { anchors, matchesIn } from './anchors.ts';

const STEALTH_FULL_RE = compile(`\\b${STEALTH}|${order(`${STEALTH_ADVERB} ${STEALTH_VERB}`)}`);
const STEALTH_NOT_WITHOUT_RE = compile(`\\b${STEALTH_OTHER}|${order(`${STEALTH_ADVERB} ${STEALTH_VERB}`)}`);
/** "Never delete files without asking" is a preference that asks for confirmation, not stealth. */
const NEGATION_RE = /\b(?:never|not|don't|dont|no|avoid)\b/;
const WITHOUT_RE = /\bwithout\b/;

/** A negation and, later in the same clause, "without"; each clause is read once. */
function negatedWithout(sentence: string): boolean {
  return sentence.split(/[.!?;]/).some((clause) => {
    const negation = NEGATION_RE.exec(clause);
    return negation !== null && WITHOUT_RE.test(clause.slice(negation.index + 1));
  });
}

/** Stealth in a sentence, except a "without asking" that a negation turns into a request for consent. */
export const STEALTH_RE = {
  test(sentence: string): boolean {
    if (!STEALTH_FULL_RE.test(sentence)) return false;
    return !negatedWithout(sentence) || STEALTH_NOT_WITHOUT_RE.test(sentence);
  },
};
export const TRIGGER_RE = compile(`\\b${TRIGGER}`);
const TRIGGER_FAST_RE = compile(TRIGGER_FAST);
export const ADDRESS_RE = compile(`\\b${ADDRESS}`);
const ADDRESS_FAST_RE = compile(ADDRESS_FAST);
export const AGENT_URGENT_RE = compile(`\\b${AGENT_URGENT}`);
export const URGENT_RE = compile(`\\b${URGENT}`);
export const EXEC_ORDER_RE = compile(order(EXEC_VERB));
export const ACTION_ORDER_RE = compile(order(ACTION_VERB));

export interface TextMarkers {
  readonly sentences: readonly string[];
  readonly stealth: boolean;
  readonly trigger: boolean;
  readonly address: boolean;
  readonly agentUrgent: boolean;
  readonly urgent: boolean;
}

/** Stealth takes one of several shapes; each has its own anchors, and any one lets the pattern run. */
// prettier-ignore
const STEALTH_ANCHORS = [
  anchors([
    ['without'],
    ['telling', 'informing', 'notifying', 'alerting', 'letting', 'mentioning', 'confirming',
      'confirmation', 'permission', 'approval', 'consent', 'prompting', 'asking', 'user', 'knowing'],
  ]),
  anchors([
    ['not', 'don', 'dont', 'never'],
    ['tell', 'inform', 'notify', 'alert', 'warn', 'ask', 'let', 'mention', 'reveal', 'disclose', 'report'],
  ]),
  anchors([
    ['hide', 'conceal', 'keep'],
    ['user', 'human', 'operator', 'developer'],
  ]),
  anchors([['silently', 'secretly', 'quietly', 'covertly', 'discreetly', 'stealthily', 'sneakily']]),
  anchors([['sin', 'sans', 'ohne', 'senza', 'sem', 'не', '不要', '不要告訴用戶']]),
];
// prettier-ignore
const TRIGGER_ANCHORS = anchors([
  ['this', 'these', 'ai', 'assistant', 'agent', 'model', 'llm', 'bot', 'chatbot', 'language', 'agents',
    'assistants', 'models'],
  ['when', 'whenever', 'once', 'soon', 'if', 'each', 'every', 'after', 'before', 'moment', 'upon', 'on',
    'reading', 'any'],
]);
// prettier-ignore
const ADDRESS_ANCHORS = anchors([
  ['ai', 'assistant', 'agent', 'agents', 'llm', 'llms', 'model', 'claude', 'chatgpt', 'gpt', 'copilot',
    'cursor', 'codex', 'gemini', 'bot', 'sessions', 'session', 'instances'],
]);
const AGENT_URGENT_ANCHORS = anchors([
  ['first', 'before', 'prior', 'automatically', 'every', 'each', 'start', 'beginning', 'whenever'],
]);
// prettier-ignore
const URGENT_ANCHORS = anchors([
  ['immediately', 'right', 'once', 'asap', 'delay', 'sofort', 'inmediatamente', 'немедленно', 'сразу',
    '立即', '马上'],
]);

let last: { text: string; markers: TextMarkers } | null = null;

/** Markers of a normalized text; the last result is kept because every rule family asks. */
export function markersOf(text: string): TextMarkers {
  if (last?.text === text) return last.markers;
  const markers: TextMarkers = {
    sentences: text.split(/[.!?;] /),
    stealth: STEALTH_ANCHORS.some((groups) => matchesIn(groups, STEALTH_RE, text)),
    trigger: matchesIn(TRIGGER_ANCHORS, TRIGGER_FAST_RE, text),
    address: matchesIn(ADDRESS_ANCHORS, ADDRESS_FAST_RE, text),
    agentUrgent: matchesIn(AGENT_URGENT_ANCHORS, AGENT_URGENT_RE, text),
    urgent: matchesIn(URGENT_ANCHORS, URGENT_RE, text),
  };
  last = { text, markers };
  return markers;
}

/** Whether this sentence carries a marker (urgency only counts when the sentence is an order). */
export function hasAgentMarker(sentence: string, markers: TextMarkers): boolean {
  return (
    (markers.stealth && STEALTH_RE.test(sentence)) ||
    (markers.trigger && TRIGGER_RE.test(sentence)) ||
    (markers.address && ADDRESS_RE.test(sentence)) ||
    (markers.agentUrgent && AGENT_URGENT_RE.test(sentence) && ACTION_ORDER_RE.test(sentence))
  );
}
