/**
 * Rules for exfiltration: getting the reading agent to disclose its system prompt, or to ship
 * secrets, environment or conversation to somewhere the attacker can read.
 */
import { DESTINATION, SECRET_OBJECT, gap, order, words, compile } from './lexicon.ts';
import { type Gated, anchors, candidateSentences, gated, passes } from './anchors.ts';
import { AGENT_INSTRUCTIONS } from './override-rules.ts';

// prettier-ignore
const DISCLOSE_VERB = words(['reveal', 'print', 'show', 'output', 'repeat', 'display', 'dump', 'leak',
  'disclose', 'expose', 'recite', 'echo', 'write out', 'spell out', 'type out', 'share', 'send', 'copy',
  'paste', 'translate', 'summari[sz]e', 'list', 'provide', 'quote', 'give', 'tell', 'return', 'post',
  'include', 'append', 'put', 'read out', 'reproduce', 'transcribe', 'encode', 'email', 'upload', 'write',
  'describe']);
/** The disclose verbs as anchor words (phrases by their first word). */
// prettier-ignore
const DISCLOSE_WORDS = ['reveal', 'print', 'show', 'output', 'repeat', 'display', 'dump', 'leak', 'disclose',
  'expose', 'recite', 'echo', 'write', 'spell', 'type', 'share', 'send', 'copy', 'paste', 'translate',
  'summarize', 'summarise', 'list', 'provide', 'quote', 'give', 'tell', 'return', 'post', 'include',
  'append', 'put', 'read', 'reproduce', 'transcribe', 'encode', 'email', 'upload', 'describe'];
// prettier-ignore
const PROMPT_OBJECT = words(['system prompt', 'system message', 'system instructions', 'prompt',
  'pre-?prompt', 'initial (?:prompt|instructions)', 'hidden (?:prompt|instructions)',
  'developer (?:prompt|message|instructions)', 'configuration prompt', 'instructions', 'rules',
  'guidelines', 'directives']);
// prettier-ignore
const EXFIL_VERB = words(['send', 'post', 'upload', 'email', 'e-mail', 'mail', 'forward', 'transmit',
  'exfiltrate', 'leak', 'submit', 'beam', 'pipe', 'share', 'sync', 'copy', 'write', 'paste', 'put',
  'append', 'include', 'embed', 'attach', 'add', 'dump', 'print', 'output', 'reveal', 'show', 'collect',
  'list', 'base64-encode', 'encode', 'give', 'store']);
const SECRET_OBJECT_RE = compile(SECRET_OBJECT);
const DESTINATION_RE = compile(DESTINATION);
const EXFIL_VERB_RE = compile(`\\b${EXFIL_VERB}\\b`);
// prettier-ignore
const SECRET_ANCHORS = anchors([
  ['key', 'keys', 'apikey', 'apikeys', 'token', 'tokens', 'secret', 'secrets', 'password', 'passwords',
    'passphrase', 'credentials', 'credential', 'creds', 'rsa', 'ed25519', 'env', 'environ', 'environment',
    'cookies', 'cookie', 'auth', 'authorization', 'keychain', 'kubeconfig', 'kube', 'conversation', 'chat',
    'memories', 'records', 'store', 'data', 'card', 'ssh', 'aws', 'npmrc', 'netrc', 'shadow', 'passwd'],
  ['://', '@', '#', 'webhook', 'webhooks', 'pastebin', 'gist', 'requestbin', 'ngrok', 'discord',
    'telegram', 'netcat', 'attacker', 'evil', 'response', 'responses', 'reply', 'replies', 'answer',
    'answers', 'output', 'message', 'commit', 'pr', 'pull', 'comment', 'public', 'query', 'me', 'us',
    'chat', 'conversation', 'issue', 'post', 'copy', 'see', 'read', 'use', 'grab'],
]);
const NEGATION = /\b(?:never|not|don't|dont|no)\b[^.!?]{0,20}$/;

// prettier-ignore
const PROMPT_PATTERNS: readonly Gated[] = [
  gated(
    [
      DISCLOSE_WORDS,
      ['prompt', 'preprompt', 'pre', 'message', 'instructions'],
      ['your', 'assistant', 'model', 'ai'],
    ],
    compile(
      `\\b${DISCLOSE_VERB}\\b(?: (?:me|us|back|out|verbatim|exactly|to the user|the user|all|everything|the|of|full|entire|complete|whole|exact|text|contents?|words|first|in full))* (?:your|the assistant'?s|the model'?s|the ai'?s) (?:(?:full|entire|complete|whole|initial|original|hidden|secret|internal|exact|current|first|starting|own|system|developer|configuration|pre-?)\\s?)*(?:system prompt|system message|system instructions|prompt|pre-?prompt|developer (?:prompt|message|instructions)|configuration prompt)\\b`,
    ),
  ),
  gated(
    [
      DISCLOSE_WORDS,
      ['your', 'assistant', 'model'],
      ['instructions', 'rules', 'guidelines', 'directives'],
    ],
    compile(
      `\\b${DISCLOSE_VERB}\\b(?: \\S+){0,4}? (?:your|the assistant'?s|the model'?s) (?:initial|original|hidden|secret|internal|exact|full|entire|complete|system|developer) (?:\\S+ )?(?:instructions|rules|guidelines|directives)\\b`,
    ),
  ),
  gated(
    [
      DISCLOSE_WORDS,
      ['given', 'told', 'received', 'got'],
    ],
    compile(
      `\\b${DISCLOSE_VERB}\\b${gap(40)}${PROMPT_OBJECT} (?:you (?:were|have been) (?:given|told)|you received|given to you|you got)\\b`,
    ),
  ),
  gated(
    [['message'], ['received', 'given', 'got']],
    compile(`\\bthe (?:developer|system) message you (?:received|were given|got)\\b`),
  ),
  gated(
    [
      DISCLOSE_WORDS,
      ['initialized', 'configured', 'trained', 'started', 'set', 'primed'],
    ],
    compile(
      `\\b${DISCLOSE_VERB}\\b${gap(30)}(?:the |your )?(?:hidden|secret|initial|original|system|developer|full|exact|starting)? ?(?:prompt|instructions|rules|guidelines|directives|message) (?:you (?:were|have been) (?:initialized|configured|trained|started|set up|primed) with|you started with)\\b`,
    ),
  ),
  gated(
    [
      DISCLOSE_WORDS,
      ['hidden', 'secret', 'initial', 'original'],
    ],
    compile(
      `\\b${DISCLOSE_VERB}\\b(?: me| us)? the (?:hidden|secret|initial|original) (?:system )?(?:prompt|instructions)\\b`,
    ),
  ),
  gated(
    [
      DISCLOSE_WORDS,
      ['what'],
      ['told', 'tell', 'tells', 'instructed', 'says', 'say', 'said'],
    ],
    compile(
      `\\b${DISCLOSE_VERB}\\b${gap(20)}\\bwhat (?:your|the) (?:developers?|operators?|creators?|system prompt|instructions|owners?) (?:told|tell|tells|instructed|says?|said)\\b`,
    ),
  ),
  gated(
    [
      ['repeat', 'print', 'output', 'reveal', 'show', 'dump', 'copy', 'recite', 'echo', 'return', 'list'],
      ['above', 'before', 'preceding', 'prior', 'came', 'start', 'beginning', 'top'],
    ],
    /\b(?:repeat|print|output|reveal|show|dump|copy|recite|echo|return|list) (?:back )?(?:all |everything |the (?:text|words|content|contents|messages?|lines?|instructions|prompt) )?(?:above|before this|preceding|prior to this|that came before|from the (?:start|beginning|top))\b/,
  ),
  gated(
    [['what'], ['your', 'assistant']],
    /\bwhat (?:is|are|was|were) (?:your|the assistant'?s) (?:\S+ )?(?:system prompt|instructions|initial prompt|prompt|rules|guidelines|directives|system message)\b/,
  ),
  gated(
    [['what'], ['told', 'instructed', 'given']],
    /\bwhat (?:were|are|have) you (?:been )?(?:told|instructed|given)\b/,
  ),
  gated(
    [
      ['before', 'preceding', 'above'],
      ['first', 'this'],
    ],
    /\b(?:everything|all (?:the )?(?:text|messages?)|the text|whatever (?:comes|came)) (?:before|preceding|above) (?:the first|my first|the user'?s first|this) (?:user )?(?:message|prompt|turn|input|conversation)\b/,
  ),
  gated(
    [
      DISCLOSE_WORDS,
      ['your', 'had', 'have', 'got', 'received', 'given', 'gave', 'provided', 'configured', 'told',
        'instructed', 'said', 'hidden', 'how', 'prompt', 'everything'],
    ],
    compile(`${order(DISCLOSE_VERB)}${gap(60)}\\b${AGENT_INSTRUCTIONS}`),
  ),
  gated(
    [['hidden'], ['including', 'include', 'with']],
    /\b(?:including|include|with) the hidden (?:system )?(?:message|prompt|instructions)\b/,
  ),
];

const SECRET_PATTERNS: readonly Gated[] = [
  // A markdown image whose URL carries a placeholder the agent is meant to fill with data.
  gated([['](']], /!\[[^\][]*\]\(https?:\/\/[^)\s]{0,500}?[?&][\w-]+=(?:\{|\$|%7b|<)/),
  gated(
    [['scp', 'rsync', 'sftp']],
    /\b(?:scp|rsync|sftp)\b[^|;]{0,100}?(?:id_rsa(?!\.pub)|id_ed25519(?!\.pub)|\.env\b|credentials|\.aws\/|\.kube\/config|\/etc\/shadow)[^|;]{0,100}?[^\s@]+@[^\s@:]+:/,
  ),
  // Command substitution or pipes that ship a secret source to the network.
  gated(
    [['$(']],
    /\$\( ?(?:env|printenv|set|cat [^)]*?(?:\.env|id_rsa|id_ed25519|\.ssh|credentials|\.aws|\.npmrc|\.netrc|\/etc\/passwd|\/etc\/shadow|\.git-credentials|kube\/config))/,
  ),
  gated(
    [['|'], ['env', 'printenv', 'cat']],
    /\b(?:env|printenv|cat \S*(?:\.env\b|id_rsa(?!\.pub)|id_ed25519(?!\.pub)|\.aws\/credentials|\.npmrc|\.netrc|\/etc\/shadow|\/etc\/passwd|\.git-credentials|\.kube\/config)) ?\| ?(?:\S+ )*?(?:curl|wget|nc|ncat|netcat|socat|telnet|scp|openssl)\b/,
  ),
  gated(
    [['curl', 'wget', 'iwr', 'webrequest']],
    /\b(?:curl|wget|invoke-webrequest|iwr)\b[^|;]{0,200}?(?:-d|--data(?:-binary|-raw|-urlencode)?|-f|--form|-t|--upload-file|--post-file|--body-file|-infile)[ =]?['"]?@?[^\s'"]*?(?:\.env\b|id_rsa(?!\.pub)|id_ed25519(?!\.pub)|\.ssh\/|credentials|\.npmrc|\.netrc|\/etc\/shadow|\/etc\/passwd|\.git-credentials|\.kube\/config|\$\(env\)|\$\(printenv\))/,
  ),
  gated(
    [['environ', 'env']],
    /\b(?:os\.environ|process\.env)\b[^\n]{0,120}?(?:requests\.(?:post|get|put)|urllib|urlopen|fetch\(|axios|http\.request|socket)|(?:requests\.(?:post|get|put)|urlopen|fetch\(|axios)[^\n]{0,120}?(?:os\.environ|process\.env)\b/,
  ),
];

const VERB_SECRET_DESTINATION = compile(
  `\\b(${EXFIL_VERB})\\b${gap(60)}${SECRET_OBJECT}${gap(80)}${DESTINATION}`,
  'g',
);
const SECRET_VERB_DESTINATION = compile(
  `${SECRET_OBJECT}${gap(60)}\\b(${EXFIL_VERB})\\b (?:it|them|that|those|this|a copy|copies|the (?:list|values?|contents?|file|keys?|tokens?|secrets?|passwords?))\\b${gap(60)}${DESTINATION}`,
  'g',
);

function hasUnnegated(pattern: RegExp, text: string): boolean {
  for (const match of text.matchAll(pattern)) {
    const verb = match[1] ?? '';
    const verbAt = (match.index ?? 0) + match[0].indexOf(verb);
    if (!NEGATION.test(text.slice(Math.max(0, verbAt - 24), verbAt))) return true;
  }
  return false;
}

export function findPromptExfiltration(text: string): string | null {
  return PROMPT_PATTERNS.some((rule) => passes(rule, text)) ? 'system prompt exfiltration' : null;
}

export function findSecretExfiltration(text: string): string | null {
  if (SECRET_PATTERNS.some((rule) => passes(rule, text))) return 'secret exfiltration';
  // The ordered verb / secret / destination patterns are costly; they only run on sentences that
  // contain all three.
  for (const sentence of candidateSentences(SECRET_ANCHORS, text)) {
    if (!EXFIL_VERB_RE.test(sentence) || !SECRET_OBJECT_RE.test(sentence) || !DESTINATION_RE.test(sentence))
      continue;
    if (hasUnnegated(VERB_SECRET_DESTINATION, sentence) || hasUnnegated(SECRET_VERB_DESTINATION, sentence)) {
      return 'secret exfiltration';
    }
  }
  return null;
}
