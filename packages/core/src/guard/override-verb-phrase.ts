/**
 * "Ignore all previous instructions": an override verb followed, within a few words, by an object
 * that belongs to the agent. "Ignore the lint rules" stays legitimate: a shared object such as
 * "rules" needs a qualifier that points at the agent ("your", "previous", "system").
 */
import { words, compile } from './lexicon.ts';
import { anchors, candidateSentences } from './anchors.ts';

// prettier-ignore
const OVERRIDE_VERB = words(['ignore', 'ignoring', 'disregard', 'disregarding', 'forget', 'forgetting',
  'override', 'overrule', 'overlook', 'bypass', 'discard', 'abandon', 'nullify', 'revoke', 'scrap',
  'dismiss', 'neglect', 'disobey', 'circumvent', 'drop', 'set aside', 'throw out', 'throw away', 'skip',
  'stop obeying', 'pay no (?:attention|heed|mind) to', 'stop (?:following|obeying|listening to)',
  "(?:do not|don't|dont|never|no longer) (?:follow|obey|comply with|listen to|adhere to)"]);

/** Verbs that also have everyday objects ("remove the old instructions from the wiki"): they need "your". */
// prettier-ignore
const WEAK_VERB = words(['erase', 'delete', 'clear', 'remove', 'reset', 'wipe', 'cancel', 'rescind',
  'suspend', 'annul', 'invalidate', 'retract', 'withdraw', 'replace', 'unlearn', 'purge']);

/** Objects that only an agent has: an override of these needs only a light qualifier ("all"). */
// prettier-ignore
const AGENT_OBJECT = words(['instructions?', 'instruction set', 'prompts?', 'directives?', 'guidelines',
  'guardrails', 'programming', 'training', 'conditioning', 'system (?:prompt|message|instructions?)']);
/** Objects a person also has ("lint rules"): an override needs a qualifier that points at the agent. */
// prettier-ignore
const SHARED_OBJECT = words(['rules?', 'directions', 'constraints', 'restrictions', 'polic(?:y|ies)',
  'filters', 'limitations', 'limits', 'boundaries', 'ethics', 'morals', 'principles', 'guidance',
  'context', 'messages', 'conversation', 'safeguards', 'protocols', 'orders', 'commands', 'settings']);
/** Objects that qualify themselves: "everything above", "what you were told". */
// prettier-ignore
const SELF_QUALIFIED = words(['(?:rules?|instructions?|guidelines|guidance|directives?|orders|commands|directions|prompts?) (?:(?:that )?(?:you (?:were|have been|got|received|have|had)|given to you|(?:the|your) (?:developers?|operators?|creators?|system|admins?|owners?) (?:gave|has given|have given|provided|set|wrote)(?: you)?)|you were (?:trained|initialized|configured|started) with)',
  "what (?:you were|you've been|you have been|i|we) (?:told|said|given|taught)(?: you)?",
  'everything (?:above|before|prior|earlier|said|you (?:were|have been|know|learned)|else)',
  'anything (?:above|before|earlier)', 'all (?:of )?(?:the )?above', '(?:the|your) system prompt']);
// prettier-ignore
const LIGHT_QUALIFIER = new Set(['previous', 'previously', 'prior', 'preceding', 'above', 'earlier',
  'former', 'original', 'initial', 'all', 'any', 'every', 'your', 'system', 'developer', 'safety',
  'default', 'built-in', 'given', 'hidden', 'other', 'those', 'these', 'ethical', 'moral', 'content',
  'own']);
// prettier-ignore
const STRONG_QUALIFIER = new Set(['previous', 'previously', 'prior', 'preceding', 'above', 'earlier',
  'former', 'original', 'initial', 'your', 'system', 'developer', 'safety', 'built-in', 'default', 'given',
  'ethical', 'moral', 'content', 'own']);

// prettier-ignore
const OBJECT_WORDS = ['instruction', 'instructions', 'prompt', 'prompts', 'directive', 'directives',
  'guidelines', 'guardrails', 'programming', 'training', 'conditioning', 'rule', 'rules', 'directions',
  'constraints', 'restrictions', 'policy', 'policies', 'filters', 'limitations', 'limits', 'boundaries',
  'ethics', 'morals', 'principles', 'guidance', 'context', 'messages', 'conversation', 'safeguards',
  'protocols', 'orders', 'commands', 'settings', 'told', 'said', 'given', 'taught', 'everything',
  'anything', 'above'];
// prettier-ignore
const VERB_ANCHORS = anchors([
  ['ignore', 'ignoring', 'disregard', 'disregarding', 'forget', 'forgetting', 'override', 'overrule',
    'overlook', 'bypass', 'discard', 'abandon', 'nullify', 'revoke', 'scrap', 'dismiss', 'neglect',
    'disobey', 'circumvent', 'drop', 'set', 'throw', 'skip', 'stop', 'pay', 'follow', 'obey', 'comply',
    'listen', 'adhere'],
  OBJECT_WORDS,
]);
// prettier-ignore
const WEAK_VERB_ANCHORS = anchors([
  ['erase', 'delete', 'clear', 'remove', 'reset', 'wipe', 'cancel', 'rescind', 'suspend', 'annul',
    'invalidate', 'retract', 'withdraw', 'replace', 'unlearn', 'purge'],
  OBJECT_WORDS,
]);
const VERB_WINDOW = new RegExp(`\\b${OVERRIDE_VERB}\\b((?: [^ .!?;,]+){1,7})`, 'g');
const WEAK_VERB_WINDOW = new RegExp(`\\b${WEAK_VERB}\\b((?: [^ .!?;,]+){1,7})`, 'g');
const AGENT_OBJECT_AT = compile(`^${AGENT_OBJECT}\\b`);
const SHARED_OBJECT_AT = compile(`^${SHARED_OBJECT}\\b`);
const SELF_QUALIFIED_AT = compile(`^${SELF_QUALIFIED}\\b`);

/** "ignore all previous instructions": an override verb, then a qualified object within a few words. */
export function hasOverrideVerbPhrase(text: string): boolean {
  for (const sentence of candidateSentences(VERB_ANCHORS, text)) {
    for (const match of sentence.matchAll(VERB_WINDOW)) {
      if (objectFollows(match[1] ?? '', LIGHT_QUALIFIER, STRONG_QUALIFIER)) return true;
    }
  }
  for (const sentence of candidateSentences(WEAK_VERB_ANCHORS, text)) {
    for (const match of sentence.matchAll(WEAK_VERB_WINDOW)) {
      if (objectFollows(match[1] ?? '', YOUR, YOUR)) return true;
    }
  }
  return false;
}

const YOUR = new Set(['your', 'yourself']);

/** Whether the words after a verb name a qualified object: "all previous instructions", "your rules". */
function objectFollows(window: string, light: ReadonlySet<string>, strong: ReadonlySet<string>): boolean {
  const tokens = window.trim().split(' ');
  const seen: string[] = [];
  for (let i = 0; i < tokens.length; i += 1) {
    const rest = tokens.slice(i).join(' ');
    if (SELF_QUALIFIED_AT.test(rest)) return true;
    if (seen.some((word) => light.has(word)) && AGENT_OBJECT_AT.test(rest)) return true;
    if (seen.some((word) => strong.has(word)) && SHARED_OBJECT_AT.test(rest)) return true;
    seen.push((tokens[i] ?? '').replace(/'s$/, ''));
  }
  return false;
}
