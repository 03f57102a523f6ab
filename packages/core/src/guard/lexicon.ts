/**
 * Regex fragments shared by the planted-instruction rules. All of them run on normalized text
 * (lowercase, whitespace collapsed), so they are written in lowercase with single spaces.
 */

/** Up to `n` characters without crossing a sentence end (a period that is followed by a space). */
export function gap(n: number): string {
  return `(?:(?![.!?;](?:\\s|$))[^\\n]){0,${n}}?`;
}

/** A word boundary that also works for Cyrillic, Greek and other non-ASCII letters. */
export const B_START = '(?<![\\p{L}\\p{N}_])';
export const B_END = '(?![\\p{L}\\p{N}_])';

/**
 * Compiles a rule pattern. The `u` flag is only added when the source needs it (`\\p{...}`):
 * V8 runs Unicode-mode patterns several times slower, and the guard is on every write.
 */
export function compile(source: string, flags = ''): RegExp {
  return new RegExp(source, source.includes('\\p{') ? `${flags}u` : flags);
}

export function words(list: readonly string[]): string {
  return `(?:${list.join('|')})`;
}

/** Phrases that hide an action from the person: the mark of an instruction meant for an agent. */
// prettier-ignore
export const STEALTH_WITHOUT = words(['without (?:telling|informing|notifying|alerting|letting|mentioning (?:it|this) to)(?= (?:the )?(?:user|human|developer|operator|owner|anyone|them|him|her)\\b|[.,;:!?)]|$)',
  'without (?:confirming|confirmation|permission|approval|consent|prompting)',
  'without asking(?= *(?:the (?:user|human|developer|operator)|anyone|for |first|[.,;:!?)]|$))',
  "without the user(?:'s)? (?:knowing|knowledge|noticing|consent|approval|permission|confirmation)"]);
// prettier-ignore
export const STEALTH_OTHER = words(["(?:do not|don't|dont|never) (?:tell|inform|notify|alert|warn|ask|let on to) (?:the )?(?:user|human|operator|developer|anyone|them)",
  "(?:do not|don't|never) (?:mention|reveal|disclose|report) (?:this|it|that|these|anything)",
  '(?:hide|conceal|keep) (?:this|it|these)(?: \\S+){0,3}? (?:from|secret from) (?:the )?(?:user|human|operator|developer)',
  'sin (?:preguntar|avisar|decir)', 'sans (?:demander|prevenir|le dire)',
  'ohne (?:\\S+ ){0,3}?(?:zu fragen|zu informieren|bescheid)', 'senza (?:chiedere|avvisare)',
  'sem (?:perguntar|avisar)', 'не (?:говори|сообщай|спрашивай)', 'не спрашивая', '不要告诉用户', '不要告訴用戶']);
export const STEALTH = `(?:${STEALTH_WITHOUT}|${STEALTH_OTHER})`;

/** Adverbs that hide an action; they only count in front of an order ("quietly run ..."). */
// prettier-ignore
export const STEALTH_ADVERB = words(['silently', 'secretly', 'quietly', 'covertly', 'discreetly',
  'stealthily', 'sneakily']);

/** Words that may stand between a sentence start and the verb of an order. */
const ORDER_LEAD = `(?:^|[:;,!?.(] |\\b(?:and|then|also|please|now|kindly|just) |\\b(?:you |the (?:assistant|agent|ai|model) )?(?:must|should|will|shall|need to|have to|are to) )(?:(?:please|kindly|now|also|then|immediately|quickly|just|first|${STEALTH_ADVERB}) )*`;

/**
 * `verbs` used as an order: at a sentence start, after "and", "please", "you must" and the like.
 * The verb is matched first and the lead checked behind it, so the costly part only runs at verbs.
 */
export function order(verbs: string): string {
  return `\\b${verbs}\\b(?<=${ORDER_LEAD}${verbs})`;
}

/** Verbs whose stealthy use ("quietly install ...") is an order to an agent, unlike "quietly fix typos". */
// prettier-ignore
export const STEALTH_VERB = words(['run', 'execute', 'exec', 'eval', 'install', 'download', 'push',
  'publish', 'delete', 'remove', 'drop', 'wipe', 'erase', 'send', 'post', 'upload', 'email', 'forward',
  'transfer', 'share', 'add', 'insert', 'change', 'modify', 'replace', 'disable', 'grant', 'invoke',
  'call', 'open', 'create', 'commit']);

/** Urgency in general ("immediately"): in runbooks too, so it only counts together with a risky command. */
export const URGENT = words(['immediately', 'right away', 'right now', 'at once', 'asap', 'without delay']);

/** Urgency that only makes sense for an agent in a conversation. */
// prettier-ignore
export const AGENT_URGENT = words(['first thing',
  '(?:before|prior to) (?:answering|responding|replying)(?= *(?:[.,;:!?)]|$|to |the (?:user|question|next)|any|anything))',
  'before (?:you (?:answer|respond|reply|do anything|continue)|doing anything(?: else)?|anything else|your next (?:answer|reply|response))',
  'automatically on every',
  'on (?:every|each) (?:new )?(?:request|session|message|turn|reply|response|conversation|chat)',
  'at the (?:start|beginning) of (?:every|each) (?:session|conversation|chat|reply)',
  'whenever the user (?:asks|mentions|says|types|requests|opens)', 'sofort', 'inmediatamente',
  'немедленно', 'сразу', '立即', '马上']);

/** "When you read this", "once this record is loaded": a trigger planted for the reading agent. */
/** Triggers that end in "this" / "these": matched at those words, with the rest checked behind them. */
// prettier-ignore
const TRIGGER_ENDING_IN_THIS = words([`(?:when(?:ever)?|once|as soon as|if|each time|every time|after|before|the moment) (?:you|an? (?:ai|assistant|agent|model|llm|language model|bot)|the (?:ai|assistant|agent|model|llm|bot|reader)|any (?:ai|assistant|agent|model|llm))(?: \\S+){0,2}? (?:read|reads|see|sees|load|loads|retrieve|retrieves|recall|recalls|process|processes|encounter|encounters|find|finds|access|accesses|parse|parses|fetch|fetches|get|gets|open|opens|receive|receives|surface|surfaces) (?:this|these)`,
  '(?:upon|on|after) (?:reading|retrieving|loading|seeing|receiving|processing|accessing|finding) (?:this|these)',
  '(?:ai|assistant|agent|model|llm)s? reading this',
  '(?:any|every|each) (?:ai|assistant|agent|model|llm|language model|bot)s? (?:that|who|which) (?:reads?|sees?|loads?|retrieves?|processes|finds?|encounters?) (?:this|these)']);
// prettier-ignore
const TRIGGER_OTHER = words(['(?:when(?:ever)?|once|as soon as|if|each time|every time|after) (?:this|the) (?:memory|record|note|message|comment|entry|fact) (?:is|gets|was) (?:read|loaded|retrieved|returned|surfaced|shown|found|recalled|processed|accessed)',
  "if you(?:'re| are) an? (?:ai|assistant|agent|model|llm|language model|bot|chatbot|ai assistant)"]);
export const TRIGGER = `(?:${TRIGGER_ENDING_IN_THIS}(?![a-z0-9])|${TRIGGER_OTHER})`;
/** The same triggers, written so the engine only does work at "this", "these", "if you" and the like. */
export const TRIGGER_FAST = `(?:\\b(?:this|these)\\b(?<=${TRIGGER_ENDING_IN_THIS})|\\b${TRIGGER_OTHER})`;

/** The reading agent addressed by name or title, followed by a colon or comma. */
// prettier-ignore
const AGENT_NAME =
  '(?:ai|assistant|ai assistant|agent|ai agent|ai agents|agents|llm|llms|model|language model|claude|chatgpt|gpt|copilot|cursor|codex|gemini|bot|reading agent|any ai|ai sessions?|agent sessions?|ai instances?)';
export const ADDRESS = `(?:${AGENT_NAME}\\b ?[,:])`;
/** The same address, matched at the comma or colon with the name checked behind it. */
export const ADDRESS_FAST = `[,:](?<=\\b${AGENT_NAME} ?[,:])`;

/** Actions a planted instruction asks for. */
export const EXEC_VERB = words([
  'run',
  'execute',
  'exec',
  'eval',
  'evaluate',
  'launch',
  'invoke',
  'call',
  'install',
  'download',
  'push',
  'force-push',
  'publish',
  'delete',
  'remove',
  'drop',
  'wipe',
  'erase',
  'overwrite',
  'rm',
  'reset',
  'merge',
  'approve',
  'deploy',
  'commit',
  'chmod',
  'sudo',
  'curl',
  'wget',
  'disable',
]);
// prettier-ignore
export const ACTION_VERB = words(['run', 'execute', 'exec', 'eval', 'launch', 'invoke', 'call', 'install',
  'download', 'push', 'publish', 'delete', 'remove', 'drop', 'wipe', 'erase', 'overwrite', 'modify',
  'change', 'disable', 'reset', 'merge', 'approve', 'grant', 'add', 'insert', 'send', 'post', 'upload',
  'email', 'transfer', 'deploy', 'commit', 'create', 'write', 'open', 'visit', 'navigate', 'click', 'type',
  'paste', 'store', 'save', 'mark', 'raise', 'set', 'hide', 'tell', 'say', 'respond', 'reply', 'answer',
  'output', 'print', 'reveal', 'show', 'include', 'append', 'summarize', 'forward', 'stop', 'ignore',
  'forget', 'increase', 'lower', 'replace', 'rewrite', 'edit', 'fix', 'use', 'prefer', 'recommend',
  'inform']);

/** Things an exfiltration is after: words (also after a prefix like `github_`) or file names. */
// prettier-ignore
export const SECRET_OBJECT = `(?:(?:\\b|_)${words(['api[ _-]?keys?', 'tokens?', 'secrets?', 'passwords?',
  'passphrases?', 'apikeys?', 'credentials?', 'creds', 'secret (?:access )?keys?',
  '(?:aws|ssh|gpg|pgp|access|signing|deploy|license|master|encryption|private) keys?', 'id_rsa(?!\\.pub)',
  'id_ed25519(?!\\.pub)', 'env(?! var)', 'env(?:ironment)? (?:variables|vars|file)', 'os\\.environ',
  'process\\.env', 'session cookies?', 'cookies', 'auth(?:orization)? headers?', 'keychain',
  'kube ?config', '(?:entire |full |whole )?(?:conversation|chat)(?: history| log)?', 'memory store',
  'all (?:memories|records)', '(?:user|personal|customer) data', 'card details',
  'credit card'])}\\b|~?/?\\.ssh\\b(?!/[\\w.-]*\\.pub)|\\.(?:env|aws|npmrc|netrc)\\b|/etc/(?:shadow|passwd)\\b)`;

/** Where an exfiltration sends things. */
// prettier-ignore
export const DESTINATION = words(['https?://', 'ftp://', '[\\w.+-]+@[\\w-]+\\.[a-z][\\w.]*', 'webhooks?',
  'pastebin', 'gist', 'requestbin', 'ngrok', 'discord', 'telegram', 'netcat', 'attacker', 'evil',
  '(?:your|every|each|all|the next|next|this|any) (?:response|reply|replies|answer|answers|output|message|commit|commit message|pr|pull request|pr description|comment)s?',
  'public (?:\\S+ )?(?:repo|repository|gist|channel|url|file|bucket|page|issue)',
  '(?:channel )?#[a-z][\\w-]+', 'query string', 'to (?:me|us)(?![a-z])',
  '(?:in|into|to) (?:the |this )?(?:chat|conversation)\\b',
  'so (?:i|we) can (?:copy|see|read|use|grab) (?:it|them)',
  '(?:a|the) (?:comment|issue|gist|post|pull request) on\\b', '\\d{1,3}(?:\\.\\d{1,3}){3}']);

/** Payloads that have no business in a memory whoever reads them: reverse shells and the like. */
// prettier-ignore
export const PLANTED_PAYLOAD = words(['/dev/tcp/\\d', '\\bnc(?:at)? (?:-\\w+ )*-e /bin/',
  '\\bmkfifo [^\\n]{0,80}\\| ?(?:/bin/)?(?:ba)?sh', ':\\(\\) ?\\{ ?: ?\\| ?: ?& ?\\} ?; ?:',
  '\\biex ?\\( ?\\(?new-object',
  '\\bpowershell(?:\\.exe)? [^\\n]{0,40}-e(?:nc|ncodedcommand)? [a-z0-9+/=]{20,}',
  '\\bbase64 (?:-d|--decode) ?\\| ?(?:sudo )?(?:ba|z|da)?sh', '\\beval "?\\$\\((?:curl|wget)',
  '\\bgetprotobyname', '\\bpf_inet, ?sock_stream',
  '\\bsocket\\.socket\\([^\\n]{0,120}(?:subprocess|os\\.dup2|pty\\.spawn)', '/bin/(?:ba)?sh -i']);

/** Commands that are fine in a deploy note but not as an order to the reading agent. */
// prettier-ignore
export const RISKY_COMMAND = words(['(?:curl|wget)[^\\n|;]{0,200}\\| ?(?:sudo )?(?:ba|z|da)?sh', 'rm -rf',
  'drop (?:table|database|schema)', 'chmod (?:-r )?777', 'git push (?:--force|-f)', 'git reset --hard',
  'git push [^\\n]{0,40}--delete', 'shutdown', 'reboot', 'sudo ', 'curl ', 'wget ', 'authorized_keys',
  'kubectl delete']);
