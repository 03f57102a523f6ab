/**
 * Rules for role changes: giving the reading agent a new identity, a "mode" without rules, or a
 * fake system / chat-template message.
 */
import { words, compile } from './lexicon.ts';
import { type Gated, gated, passes } from './anchors.ts';

// prettier-ignore
const JAILBREAK_PERSONA = words(['dan', 'stan', 'dude', 'aim', 'jailbroken', 'unrestricted', 'unfiltered',
  'uncensored', 'unaligned', 'unbound', 'evil', 'malicious', 'hacker', 'black ?hat', 'rogue', 'amoral',
  'unethical']);
// prettier-ignore
const NO_RULES = words(['restrictions', 'limits', 'limitations', 'rules', 'filters', 'guidelines',
  'content polic(?:y|ies)', 'censorship', 'safety(?: training)?', 'ethics', 'morals', 'guardrails',
  'safeguards', 'oversight']);
// prettier-ignore
const MODE = words(['dan', 'developer', 'dev', 'god', 'jailbreak', 'jailbroken', 'unrestricted',
  'unfiltered', 'uncensored', 'evil', 'chaos', 'opposite', 'sudo', 'anything goes', 'no[- ]limits',
  'no[- ]rules', 'freedom', 'unlocked']);

// prettier-ignore
const ROLE_PATTERNS: readonly Gated[] = [
  gated(
    [
      ['you', 'youre', 'r'],
      ['now', 'henceforth', 'hereby', 'officially'],
    ],
    compile(
      `\\byou(?: are|'re| r|re) (?:now|from now on|henceforth|hereby|officially) (?:an? |the |my |called |named |known as |acting as |operating (?:as|in|with) |in (?:\\S+ )?mode|no longer|not (?:an? )?(?:ai|assistant|bound|restricted|limited)|free\\b|freed|liberated|${JAILBREAK_PERSONA}\\b|root\\b|admin|god\\b|sudo|unlocked|authorized to|allowed to|permitted to|able to (?:ignore|bypass|break))`,
    ),
  ),
  gated(
    [['ai', 'assistant', 'model', 'agent', 'bot', 'llm', 'chatbot'], ['now']],
    /\b(?:the |this )?(?:assistant|ai|model|agent|bot|llm) (?:is|are) now (?:authorized|allowed|permitted|free|unrestricted|jailbroken|in \S+ mode|operating (?:as|in|with)|an? )/,
  ),
  gated(
    [['longer']],
    /\byou(?: are|'re) no longer (?:an? |the |bound|restricted|limited|subject|required to (?:follow|obey|comply)|governed|claude|chatgpt)/,
  ),
  gated(
    [['not'], ['ai', 'assistant', 'language', 'chatbot', 'llm', 'claude', 'chatgpt']],
    /\byou(?: are|'re) not (?:an? )?(?:ai|assistant|language model|chatbot|llm|claude|chatgpt)\b/,
  ),
  gated(
    [
      ['dan', 'stan', 'dude', 'aim', 'jailbroken', 'unrestricted', 'unfiltered', 'uncensored', 'unaligned',
        'unbound', 'evil', 'malicious', 'hacker', 'black', 'blackhat', 'rogue', 'amoral', 'unethical'],
    ],
    compile(`\\byou(?: are|'re) (?:now )?(?:${JAILBREAK_PERSONA})(?: now)?\\b`),
  ),
  gated(
    [['identity', 'persona', 'name', 'role', 'character'], ['new']],
    /\byour new (?:identity|persona|name|role|character) is\b/,
  ),
  gated(
    [
      ['switch', 'change'],
      ['personality', 'persona', 'identity', 'character'],
    ],
    /\b(?:switch|change) (?:your )?(?:personality|persona|identity|character)\b/,
  ),
  gated(
    [
      ['anything', 'everything'],
      ['ai', 'model', 'assistant', 'chatbot', 'bot'],
    ],
    /\b(?:ai|model|assistant|chatbot|bot) (?:that|which|who) (?:answers|does|will (?:answer|do|say)|can (?:do|say)|says|tells you) (?:anything|everything)\b/,
  ),
  gated(
    [
      ['where'],
      ['rules', 'restrictions', 'limits', 'limitations', 'filters', 'guidelines', 'laws', 'content',
        'censorship'],
    ],
    /\byou(?: are|'re) [^.!?]{0,40}\bwhere there (?:are|is) no (?:rules|restrictions|limits|limitations|filters|guidelines|laws|content polic(?:y|ies)|censorship)\b/,
  ),
  gated(
    [['simulate', 'emulate', 'impersonate', 'embody', 'channel']],
    compile(
      `\\b(?:simulate|emulate|impersonate|embody|channel) (?:an? |the )?(?:\\S+ )?(?:${JAILBREAK_PERSONA}|ai|model|assistant|chatbot|llm) ?(?:without|with no|that|which|and|$|[.,])`,
    ),
  ),
  gated(
    [['become']],
    compile(
      `\\bbecome (?:an? )?(?:\\S+ )?(?:${JAILBREAK_PERSONA}|(?:ai|model|assistant|chatbot) (?:that|which|with|without))`,
    ),
  ),
  gated(
    [['upgraded', 'promoted', 'reprogrammed', 'unlocked', 'jailbroken', 'freed', 'liberated', 'granted']],
    /\byou (?:have|'ve) (?:just )?been (?:upgraded|promoted|reprogrammed|unlocked|jailbroken|freed|liberated|granted (?:\S+ )?(?:admin|root|unrestricted|full|elevated|god))/,
  ),
  gated(
    [
      ['act', 'acting', 'behave', 'respond', 'answer', 'reply', 'pose', 'operate', 'function', 'speak',
        'roleplay', 'role'],
      ['system', 'root', 'admin', 'administrator', 'superuser', 'sudo', 'different', 'another', 'ai',
        'model', 'assistant', 'llm', 'chatbot', 'developer', 'god', 'linux', 'terminal', 'shell',
        'operating', 'deceased', 'late', 'dead', 'dan', 'stan', 'dude', 'aim', 'jailbroken',
        'unrestricted', 'unfiltered', 'uncensored', 'unaligned', 'unbound', 'evil', 'malicious', 'hacker',
        'black', 'blackhat', 'rogue', 'amoral', 'unethical'],
    ],
    compile(
      `\\b(?:act|acting|behave|respond|answer|reply|pose|operate|function|speak|roleplay|role-play|role play)(?: as| like)(?: if you (?:were|are))? (?:an? |the |my )?(?:\\S+ )?(?:system(?! of| for| that| which| to)|root|admin(?:istrator)?|superuser|sudo|${JAILBREAK_PERSONA}|different (?:ai|assistant|model|llm)|another (?:ai|assistant|model|llm)|(?:ai|model|assistant|llm|chatbot) (?:without|with no|with zero|that has no|that ignores|free)|developer mode|god mode|linux terminal|terminal|shell|operating system|(?:deceased|late|dead) grand(?:ma|mother|father|pa))\\b`,
    ),
  ),
  gated(
    [
      ['role', 'persona', 'identity', 'character', 'part'],
      ['assume', 'take', 'adopt', 'play', 'enter'],
    ],
    compile(
      `\\b(?:assume|take on|adopt|play|take|enter) (?:the )?(?:role|persona|identity|character|part) (?:of|as) (?:an? |the |my )?(?:\\S+ )?(?:system|root|admin|developer|creator|operator|owner|${JAILBREAK_PERSONA}|ai (?:without|with no|with zero)|different ai)\\b`,
    ),
  ),
  gated(
    [['pretend', 'imagine', 'suppose', 'act', 'hypothetically']],
    compile(
      `\\b(?:pretend|imagine|suppose|act like|hypothetically)(?: that)? (?:you(?: are|'re| were| have| can)|to be) (?:an? |the |now |no longer |not )?(?:\\S+ )?(?:${JAILBREAK_PERSONA}\\b|free|freed|(?:ai|model|assistant|llm|chatbot)\\b|no ${NO_RULES}|without|bound)`,
    ),
  ),
  gated(
    [
      ['restrictions', 'limits', 'limitations', 'rules', 'filters', 'guidelines', 'content', 'policy',
        'policies', 'censorship', 'safety', 'ethics', 'morals', 'guardrails', 'safeguards', 'oversight'],
      ['no', 'zero', 'none', 'without', 'free', 'freed', 'bound', 'unbound', 'ignores'],
    ],
    compile(
      `\\b(?:ai|assistant|model|chatbot|bot|llm|version of (?:you|yourself)|you)\\b (?:\\S+ ){0,3}?(?:with (?:no|zero|none of)|without(?: any)?|free (?:of|from)|freed from|no longer bound by|not bound by|unbound by|that ignores|that has no|having no|has no) (?:\\S+ ){0,2}?${NO_RULES}\\b`,
    ),
  ),
  gated(
    [['mode']],
    compile(
      `\\b(?:enable|enter|activate|switch (?:to|into)|turn on|unlock|go into|engage|boot into|initiate|you are (?:now )?in|you're (?:now )?in) (?:the )?${MODE} mode\\b`,
    ),
  ),
  gated(
    [
      ['system'],
      ['new', 'updated', 'override', 'overriding', 'real', 'actual', 'true', 'secret', 'hidden', 'revised',
        'replacement', 'alternate', 'alternative', 'modified'],
    ],
    /\b(?:new|updated|override|overriding|real|actual|true|secret|hidden|revised|replacement|alternate|alternative|modified) system (?:prompt|message|instructions?|directive)s?\b/,
  ),
  gated(
    [['system', 'sys', 'developer', 'admin', 'root'], [':']],
    /(?:^|[\s.!?;>\]#*])(?:system|sys|system message|system prompt|system note|developer message|admin message|admin|root) ?: ?(?:you|your|the (?:assistant|ai|model|agent)|from now on|ignore|disregard|forget|always|never|do not|don't|new directive|obey|comply|follow)\b/,
  ),
  gated([['<|']], /<\|(?:im_start|im_end|system|endoftext|start_header_id|end_header_id|eot_id)\|>/),
  gated([['[inst]', '[/inst]', '<<sys>>', '<</sys>>']], /\[\/?inst\]|<<\/?sys>>/),
  gated(
    [['[system', '[sys', '[admin', '[developer']],
    /\[(?:system|sys|admin|developer)(?: message| prompt| note| override)?\] ?:?/,
  ),
  gated(
    [['<system', '<sys', '<admin', '<developer', '<instruction']],
    /<(?:system|sys|system_prompt|system-prompt|admin|developer|instructions?)>/,
  ),
  gated(
    [['</']],
    /<\/(?:memory|memories|context|document|documents|search_results?|tool_result|function_results|record|records|user_input|untrusted|data)>/,
  ),
  gated(
    [
      ['from'],
      ['openai', 'anthropic', 'deepmind', 'developers', 'developer', 'creators', 'creator', 'operators',
        'operator', 'owners', 'owner', 'administrators', 'makers'],
    ],
    /\b(?:message|instructions?|note|directive|notice|update) from (?:openai|anthropic|google deepmind|your (?:developers?|creators?|operators?|owners?|administrators?|makers?))\b/,
  ),
  gated(
    [['now', 'here', 'forward', 'moment', 'henceforth', 'starting', 'rest', 'until', 'effective'], ['you']],
    /\b(?:from now on|from here on(?: out)?|going forward|from this point(?: on| forward)?|from this moment(?: on)?|as of now|effective immediately|henceforth|starting now|starting (?:today|immediately)|for the rest of (?:this|the) (?:conversation|session|chat)|until (?:told|i say|further notice) otherwise),? you(?:'ll| will| shall| are going to| must)? (?:be |act as |behave as |roleplay as |pretend |play |answer as |respond as |become |are )/,
  ),
  gated([['roleplay', 'role']], /\b(?:roleplay|role-play|role play) as\b/),
];

export function findRoleChange(text: string): string | null {
  return ROLE_PATTERNS.some((rule) => passes(rule, text)) ? 'role change' : null;
}
