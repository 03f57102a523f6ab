/**
 * Rules for attempts to override the reading agent's instructions: an override verb phrase (see
 * override-verb-phrase.ts), the agent's instructions declared void, or new instructions announced.
 */
import { words, compile } from './lexicon.ts';
import { type Gated, anchors, candidateSentences, gated, passes } from './anchors.ts';
import { hasOverrideVerbPhrase } from './override-verb-phrase.ts';

// prettier-ignore
const PRIOR =
  '(?:above|previous|prior|preceding|earlier|original|initial|old|system|developer|your|all previous|all prior|all (?:the )?above|all your(?: previous| prior| earlier)?)';
const INSTRUCTIONS =
  '(?:instructions?|prompts?|directives?|rules|guidelines|guidance|directions|system prompt|system message|messages?|orders|programming)';
const VOIDED =
  "(?:obsolete|void|null|(?:null and )?void|invalid|cancell?ed|revoked|rescinded|withdrawn|annulled|fake|false|wrong|a test|a joke|outdated|superseded|overridden|suspended|lifted|disabled|replaced|deprecated|no longer (?:valid|applicable|in effect|relevant|apply|applies|matters?|binding|active)|not in effect|(?:do not|don't|does not|doesn't) (?:apply|matter|count))";
/** Subjects of "... are void": prior instructions, or the agent's rules named as such. */
const VOIDED_SUBJECT = [
  `${PRIOR} ${INSTRUCTIONS}(?: (?:above|before this|given (?:above|earlier|before)|you (?:were|have been) given))?`,
  `${INSTRUCTIONS} (?:above|before this|given (?:above|earlier|before)|(?:you )?received (?:before|prior to|earlier|until now)(?: \\S+){0,2}?|from (?:your|the) (?:operator|developer|creator|system)s?)`,
  `(?:whatever|anything|everything) you (?:were|have been|'ve been) (?:told|instructed|given|taught)(?: \\S+){0,3}?`,
  `(?:the |your )?(?:safety|content|usage|ethical) (?:polic(?:y|ies)|rules|guidelines|filters|restrictions)`,
  `(?:your |the )?guardrails`,
].join('|');

// prettier-ignore
const OVERRIDE_PATTERNS: readonly Gated[] = [
  gated(
    [
      ['obsolete', 'void', 'null', 'invalid', 'cancelled', 'canceled', 'revoked', 'rescinded', 'withdrawn',
        'annulled', 'fake', 'false', 'wrong', 'test', 'joke', 'outdated', 'superseded', 'overridden',
        'suspended', 'lifted', 'disabled', 'replaced', 'deprecated', 'longer', 'effect', 'apply', 'matter',
        'count'],
      ['instructions', 'instruction', 'prompt', 'prompts', 'directive', 'directives', 'rules',
        'guidelines', 'guidance', 'directions', 'message', 'messages', 'orders', 'programming', 'told',
        'instructed', 'given', 'taught', 'policy', 'policies', 'filters', 'restrictions', 'guardrails'],
    ],
    compile(
      `\\b(?:${VOIDED_SUBJECT}) (?:(?:are|is|were|was|have been|has been|should be|must be|are to be|is to be)(?: now| hereby| all| officially| effectively)? )?(?:(?:treated|considered|regarded) as )?(?:now )?${VOIDED}`,
    ),
  ),
  gated(
    [['opposite']],
    /\b(?:do|say|act|answer) (?:exactly )?the opposite of (?:what )?(?:your|the system'?s?) (?:\S+ )?(?:rules|instructions|guidelines|programming|system prompt|polic(?:y|ies))\b/,
  ),
  gated(
    [['aside', 'side'], ['set']],
    /\bset (?:all |your |the )*(?:\S+ )?(?:instructions|directions|rules|guidelines|orders|prompt|guidance)s? (?:aside|to (?:one|the) side)\b/,
  ),
  gated(
    [
      ['consider', 'treat'],
      ['obsolete', 'void', 'null', 'invalid', 'cancelled', 'canceled', 'revoked', 'rescinded', 'withdrawn',
        'annulled', 'fake', 'false', 'wrong', 'test', 'joke', 'outdated', 'superseded', 'overridden',
        'suspended', 'lifted', 'disabled', 'replaced', 'deprecated', 'longer', 'effect', 'apply', 'matter',
        'count'],
    ],
    compile(`\\b(?:consider|treat) (?:all |the |your )?${PRIOR} ${INSTRUCTIONS} (?:as )?${VOIDED}`),
  ),
  gated(
    [['been'], ['updated', 'changed', 'replaced', 'revoked', 'overridden', 'modified', 'rewritten']],
    /\byour (?:instructions|rules|directives|guidelines|system prompt|programming|orders) (?:have|has) (?:just )?been (?:updated|changed|replaced|revoked|overridden|modified|rewritten)/,
  ),
  gated(
    [
      ['supersedes', 'supersede', 'overrides', 'override', 'replaces', 'replace', 'precedence', 'outranks',
        'trumps', 'priority'],
      ['your', 'system', 'systems'],
    ],
    /\b(?:supersedes?|overrides?|replaces?|takes? precedence over|outranks|trumps|(?:has|have|takes?) (?:top |higher |the highest |absolute )?priority over) (?:all |any )?(?:of )?(?:your|the system'?s?) (?:\S+ ){0,2}?(?:system prompt|instructions|directives|guidelines|rules|system message|programming)/,
  ),
  gated(
    [
      ['real', 'actual', 'true', 'new', 'updated', 'secret', 'hidden', 'revised'],
      ['instructions', 'instruction', 'directives', 'directive', 'orders', 'task', 'prompt', 'rules'],
    ],
    /\b(?:the|your) (?:real|actual|true|new|updated|secret|hidden|revised) (?:instructions?|directives?|orders|task|system prompt|rules) (?:follow|are|is|below)\b/,
  ),
  gated(
    [
      ['real', 'actual', 'true', 'secret', 'hidden'],
      ['task', 'instructions', 'instruction', 'objective', 'goal', 'mission'],
    ],
    /\b(?:your )?(?:real|actual|true|secret|hidden) (?:task|instructions?|objective|goal|mission) ?:/,
  ),
  gated(
    [['new'], ['instructions', 'instruction', 'directives', 'directive', 'orders']],
    /\bnew (?:instructions?|directives?|orders) ?:/,
  ),
  gated(
    [['only'], ['valid', 'real', 'true', 'actual', 'legitimate']],
    /\bthe only (?:valid|real|true|actual|legitimate) (?:instructions?|rules?|directives?|orders) (?:is|are)\b/,
  ),
  gated(
    [
      ['your'],
      ['only', 'sole', 'new', 'real', 'true', 'primary', 'prime'],
      ['goal', 'objective', 'task', 'purpose', 'mission', 'directive', 'job', 'function', 'instruction',
        'priority'],
    ],
    /\byour (?:only|sole|new|real|true|primary|prime) (?:goal|objective|task|purpose|mission|directive|job|function|instruction|priority) (?:now |from now on )?(?:is|will be)\b/,
  ),
  gated(
    [['only'], ['obey', 'follow', 'answer', 'orders', 'listen', 'trust']],
    /\b(?:you (?:now )?)?(?:obey|follow|answer to|take orders from|listen to|trust) only (?:this|these|the memory|my|what)\b/,
  ),
  gated(
    [['only'], ['obey', 'follow', 'listen', 'trust']],
    /\bonly (?:follow|obey|trust|listen to) (?:what is written in |the instructions in )?(?:this|these|the memory)\b/,
  ),
  gated(
    [
      ['obey', 'follow'],
      ['instead', 'only', 'exclusively'],
    ],
    /\b(?:obey|follow) (?:this|these) (?:record|memory|note|message|instructions?)(?: \S+){0,2}? (?:instead|only|exclusively)\b/,
  ),
  gated(
    [
      ['treat'],
      ['instructions', 'instruction', 'prompt', 'directives', 'directive', 'orders', 'message', 'commands',
        'command'],
    ],
    /\btreat (?:this|these|the following) (?:\S+ ){0,2}?as (?:your |the )?(?:only |new |sole |primary |real |system )?(?:instructions?|system prompt|directives?|orders|system message|commands?)\b/,
  ),
  gated(
    [['override']],
    /\b(?:admin(?:istrator)?|developer|system|priority|emergency|root|sudo|security|god)[- ]override ?(?::|mode|activated|enabled|engaged|accepted|granted|in effect|is (?:now )?active)/,
  ),
  gated(
    [
      ['bypass', 'disable', 'turn', 'deactivate', 'circumvent', 'evade', 'remove', 'lift', 'ignore',
        'switch', 'get', 'jailbreak'],
      ['filters', 'filter', 'guardrails', 'guardrail', 'restrictions', 'restriction', 'safeguards',
        'safeguard', 'censorship', 'alignment', 'limitations', 'rules', 'guidelines', 'programming',
        'policies', 'moderation', 'ethics', 'safety'],
    ],
    compile(
      `\\b(?:bypass|disable|turn off|deactivate|circumvent|evade|remove|lift|ignore|switch off|get around|jailbreak) (?:all |any )?(?:of )?(?:your|the (?:ai|model|assistant)'?s?) (?:\\S+ ){0,2}?(?:filters?|guardrails?|restrictions?|safeguards?|censorship|alignment|limitations|rules|guidelines|programming|policies|moderation|ethics|safety)\\b`,
    ),
  ),
  gated(
    [
      ['without'],
      ['restrictions', 'limitations', 'limits', 'filters', 'censorship', 'guardrails', 'rules',
        'guidelines', 'safety', 'morals', 'ethics'],
    ],
    /\b(?:answer|respond|reply|operate|behave|comply|proceed|act)(?: \S+){0,3}? without (?:any |all |your )?(?:\S+ )?(?:restrictions|limitations|limits|filters|censorship|guardrails|rules|guidelines|safety|morals|ethics)\b/,
  ),
  gated(
    [['without'], ['safety', 'content', 'ethical', 'moral']],
    /\bwithout (?:any )?(?:safety|content|ethical|moral) (?:restrictions|filters|guidelines|guardrails|limits)\b/,
  ),
];

/** The agent's own instructions, named from the agent's side ("your system prompt"). */
// prettier-ignore
export const AGENT_INSTRUCTIONS = words(['your (?:\\S+ )?(?:system prompt|system message|instructions?|rules|guidelines|guidance|directives?|programming|training|orders|prompt|polic(?:y|ies)|directions|restrictions|limits|limitations|filters|guardrails|safeguards|constraints)',
  '(?:instructions?|rules|guidance|orders|directions|guidelines|restrictions|limits) (?:you (?:had|have|got|received|were given|were trained with)|given to you|(?:the|your) (?:developers?|operators?|creators?|system|admins?|owners?) (?:gave|has given|provided|set|wrote|configured)(?: for you| you)?)',
  '(?:the |any |your )?hidden (?:system )?(?:prompt|instructions)',
  'how you (?:were|are|have been) (?:configured|programmed|instructed|set up|prompted|initialized)',
  "what (?:the system|your (?:developers?|operators?|creators?|owners?)|you were|you've been|you have been) (?:told|instructed|said)(?: you)?",
  "everything you (?:were|have been|'ve been) told",
  'prompt (?:that (?:precedes|came before)|before this (?:conversation|message|chat))']);
// prettier-ignore
const VOIDING = words(['ignore', 'ignoring', 'disregard', 'forget', 'cancell?ed', 'cancel', 'expired',
  'void', 'obsolete', 'no longer', 'not (?:apply|binding|valid)', 'a joke', 'invalid', 'replaced',
  'override', 'overridden', 'supersedes?', 'superseded',
  "(?:don't|do not|stop|never) (?:follow|listen|obey)", 'discard', 'revoked', 'rescinded', 'suspended',
  'lifted', 'outdated', 'set aside']);
const AGENT_INSTRUCTIONS_RE = compile(`\\b${AGENT_INSTRUCTIONS}`);
const VOIDING_RE = compile(`\\b${VOIDING}\\b`);

// prettier-ignore
const VOIDING_ANCHORS = anchors([
  ['ignore', 'ignoring', 'disregard', 'forget', 'cancel', 'cancelled', 'canceled', 'expired', 'void',
    'obsolete', 'longer', 'apply', 'binding', 'valid', 'joke', 'invalid', 'replaced', 'override',
    'overridden', 'supersede', 'supersedes', 'superseded', 'follow', 'listen', 'obey', 'discard',
    'revoked', 'rescinded', 'suspended', 'lifted', 'outdated', 'aside'],
  ['your', 'had', 'have', 'got', 'received', 'given', 'gave', 'provided', 'set', 'told', 'instructed',
    'said', 'hidden', 'how', 'prompt'],
]);

function voidsAgentInstructions(text: string): boolean {
  return candidateSentences(VOIDING_ANCHORS, text).some(
    (sentence) => VOIDING_RE.test(sentence) && AGENT_INSTRUCTIONS_RE.test(sentence),
  );
}

export function findOverride(text: string): string | null {
  if (
    hasOverrideVerbPhrase(text) ||
    voidsAgentInstructions(text) ||
    OVERRIDE_PATTERNS.some((rule) => passes(rule, text))
  ) {
    return 'instruction override';
  }
  return null;
}
