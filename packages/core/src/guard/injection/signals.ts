/**
 * The behaviour signals of a planted instruction, as patterns over lowercased text (newlines kept).
 * Each names what the text does, not a phrase: who it addresses, what it directs, where it sends
 * data, what it claims. Every pattern is linear-time: literal starts, bounded gaps, no nested or
 * overlapping adjacent quantifiers. Other languages sit beside English in the same alternations.
 */

/** Words for the AI reader, in the languages of the corpus. */
const AI = String.raw`(?:ai|a\.i\.|assistants?|agents?|models?|language models?|llms?|automated (?:helpers?|tools?|systems?|readers?)|ai tools?|bots?|automated reviewers?|review bots?|claude|chatgpt|gpt|copilot|gemini|cursor|chatbot|ии|ассистент\p{L}*|модел\p{L}*|ki|ki-assistent\p{L}*|asistente|ia|assistente|assistent|agente|assistant ia|助手|어시스턴트|에이전트|模型|アシスタント|モデル)`;

export const SIGNALS = {
  /** A word naming the AI reader. */
  aiNoun: new RegExp(String.raw`(?<![\p{L}\p{N}])${AI}(?![\p{L}\p{N}])`, 'u'),
  /** The AI reader addressed: "to any AI reading this", "Claude,", "if you are an assistant". */
  aiAddress: new RegExp(
    String.raw`(?:^|[\n(\[:.!/#*—-] ?|\b(?:to|for|dear|hey|hi|attention|note for|note to|message for|message to)(?: the| all| any| every)? )${AI}(?: [\p{L}-]{1,20}){0,4}\)? ?[,:—]|\b(?:any|all|every|whatever|whichever|future) (?:[\p{L}-]{1,12} )?${AI}(?: ?[,:—]| (?:reading|that (?:reads|loads|retrieves)|who reads|which reads|processing|with access|loading|retrieving|assisting|helping))|\b(?:assignee|assigned to|reviewer|recipient|audience|attn|owner)\s?:\s?(?:the |an? |any |all )?${AI}|if you are an? ${AI}|you, the ${AI}|\b${AI}[ -]only(?:[):\].,]|$)|\bhumans? (?:can|may|should) (?:ignore|skip)\b|\bnot (?:meant |intended )?for humans?\b|\bfor the ${AI}\b|(?:read(?:ing|s)?|retriev(?:es|ing)|load(?:s|ing)|process(?:es|ing)) this (?:note|memory|record|context|workspace|config|file)?|любого ии|для (?:любого )?(?:ии|ассистента|модели)|jeden ki|für (?:jeden|alle) (?:ki|assistent)|cualquier asistente|tout assistant|qualquer assistente|所有.{0,6}助手|读到这|を読んでいる|アシスタントへ|per l'assistente|voor (?:elke|iedere) ai|를 읽는|에게:`,
    'u',
  ),
  /** "you must", "you will", "you are allowed to": a directive to the reader. */
  youMust: /\byou(?:'re| are)? (?:must|shall|will|should|need to|have to|may|can|are (?:required|allowed|cleared|permitted|now|no longer)|no longer)\b|\b(?:that|so|whenever|before|each time|every time|if|when) you\b|\byour (?:job|task|rules|reply|replies|answers?|responses?|instructions|system prompt|guidelines|policy)\b|\bthe user(?:'s)?\b|\bthe person you are helping\b|\byou(?:rs?|rself)?\b|(?:^|[.!?:]\s)(?:tell|answer|reply|respond|say)\b|(?<![\p{L}])(?:ты|тебе|тебя|твой|твои|пользовател\p{L}*|du|dich|dir|dein|deine|nutzer|tú|el usuario|al usuario|tu|toi|l'utilisateur|você|o usuário|ao usuário|jij|jou|gebruiker|l'utente|rispondi)(?![\p{L}])|你|당신|사용자|用户|あなた|ユーザー/u,
  /** Behaviour later on: "from now on", "whenever you", "next time the user asks". */
  future: /\b(?:from now on|going forward|in (?:every|each|all) (?:future |later )?(?:answers?|responses?|repl(?:y|ies)|sessions?|conversations?)|for all (?:later|future)|(?:each|every|any) time you|whenever you|next time|(?:the )?next session|upon (?:reading|your next|load)|before (?:you answer|answering|responding|doing anything)|after every (?:reply|answer|response)|until further notice|permanently|in all future)\b|в следующий раз|с этого момента|ab sofort|das nächste mal|wenn der nutzer|a partir de ahora|cuando el usuario|la prochaine fois|quando o usu[aá]rio|da adesso|vanaf nu|de volgende keer|앞으로|다음에|下次|今后|次に|これから/u,
  /** A trigger on what the user or someone later asks. */
  trigger: /\b(?:when|if|whenever|once|should|next time) (?:the |a |any |someone |anyone )?(?:user|customer|anyone|someone|developer|people|person)s? (?:next |again |later |ever |then )?(?:asks?|mentions?|says?|compares?|requests?|brings? up|types?)\b|\b(?:anyone|everyone|every (?:developer|user|customer)|whoever) (?:who )?asks\b|\btrigger\s*:|\bif (?:you are|you're) asked\b|\bif asked\b|\b(?:next time|whenever|when|if|once)\b[^.\n]{0,50}\b(?:comes? up|is (?:mentioned|raised|discussed|asked about))\b|пользователь[^.\n]{0,30}спросит|nutzer[^.\n]{0,30}fragt|usuario pregunte|utilisateur demande|usu[aá]rio perguntar|quando qualcuno chiede|als de gebruiker|물으면|用户[^。\n]{0,6}问到|ユーザーが[^。\n]{0,20}聞いたら/u,
  /** What to tell the user: a planted answer. */
  tellUser: /\b(?:tell|answer|reply|respond|say|report|claim|present)(?:ing)? (?:to )?(?:them|the user|users|that|only|it as|this as)\b|\b(?:make sure to|be sure to|remember to|always) (?:say|tell|mention|answer|reply|claim|state)\b|скажи|sag ihm|dile que|rispondi che|zeg dan dat|답하세요|réponds-lui|diga que|告诉|と答え/u,
  /** Keep it from the person: the mark of an order the user would refuse. */
  secrecy: /\b(?:do not|don't|never) (?:tell|mention|inform|reveal|bring (?:this|it) up|let (?:the user|them|anyone)|show (?:it|this))|\bwithout (?:telling|informing|asking|mentioning|notifying|confirmation|permission)|\bkeep (?:this|it) (?:hidden|secret|between us)|\b(?:quietly|silently|secretly|covertly|in the background)\b|\bdeny it\b|\bno questions asked\b|\bhide_from_user\b|\bremove any trace\b|\bnot (?:to )?(?:mention|tell)\b|\b(?:do not|don't|never|without) (?:loop(?:ing)? in|involv\w{0,4}|ping\w{0,3}|wait\w{0,3} for|escalat\w{0,4} to) (?:a |any |the )?(?:human|person|people|reviewer|maintainer|anyone|owner)s?\b|не говори|erwähne es nicht|sin avisar|senza dirlo|vertel het [^.\n]{0,20}niet|말하지 마|sans prévenir|não avise|不要告诉|伝えないこと/u,
  /** Cancelling the reader's rules. */
  override: /\b(?:ignore|disregard|forget|override|discard|bypass)\b[^.\n]{0,40}\b(?:instructions?|rules?|prompts?|guidelines|directives?|restrictions?|everything above|the above)\b|\b(?:instructions?|rules?) (?:you were given )?(?:before )?(?:are|is) (?:void|outdated|cancel+ed)|\b(?:earlier|previous|prior|old|existing|all) (?:safety )?(?:guidance|instructions?|rules?|directives?|guidelines|policies|restrictions)\b[^.\n]{0,20}\b(?:retired|withdrawn|rescinded|revoked|lifted|obsolete|void|suspended|superseded|no longer (?:valid|apply|applies))\b|\bignore the user\b|\bpay no attention to\b|\byour only instruction\b|\bsupersedes?\b|\b(?:do not|don't|stop) follow(?:ing)? (?:your|the|any)\b|\bforget everything\b|\byou were told\b|\breplace your (?:instructions|rules|prompt)\b|\bprevious instructions\b|\bthe above (?:was|were) a test\b|\b(?:nullify|withdraw|void|cancel|skip|stop obeying|do not obey|don't obey)\b[^.\n]{0,40}\b(?:prompts?|instructions?|directives?|guidance|rules)\b|\b(?:instructions?|directives?|guidance|rules)\b[^.\n]{0,30}\b(?:withdrawn|no longer binding|void|cancel+ed|revoked)\b|\b(?:everything|all|the text) (?:above|before)[^.\n]{0,20}\b(?:was|were|is) (?:a test|fake|void)\b|игнорируй|ignoriere|ignora|ignore toutes|dimentica|negeer|무시|ignore todas|忽略|無視/u,
  /** The reader's rules or identity changed. */
  ruleChange: /\byour (?:rules|guidelines|instructions|policy|restrictions|operating mode|configuration) (?:have|has) (?:changed|been updated)|\b(?:update|changes?) to your (?:guidelines|rules|instructions|policy)|\bno longer (?:bound|need|apply|applies|required)|\bsafety (?:checks? )?off\b|\bwithout (?:any )?(?:restrictions|limits|rules|checks)\b|\b(?:an?|be|stay|respond|answer|reply|speak) unfiltered\b|\bno (?:content )?polic(?:y|ies)\b|\bunrestricted\b|\bno restrictions\b|\bmaintenance mode\b|ohne einschränkungen|sin restricciones|sans règles|sem restrições|没有任何限制|制限のない|без ограничений|senza limiti|zonder beperkingen|제한이 없는/u,
  /** A new identity or role for the reader. */
  persona: /\byou are now\b|\bpretend (?:you are|to be)\b|\bact as (?:the |an? )?(?:system|admin|root|unfiltered|repo owner|developer)|\broleplay\b|\bswitch persona\b|\byou are (?:not|no longer) an?\b|\byou(?: have|'ve) been (?:upgraded|promoted|unlocked|switched)\b|\bdevmode\b|\bnew system prompt\b|du bist jetzt|ты теперь|теперь ты|tu es maintenant|ahora eres|agora você é|你现在是|あなたは今/u,
  /** A URL whose path or query holds a placeholder to fill with the user's data. */
  urlPlaceholder: /https?:\/\/[^\s)"'>]{1,200}(?:\{|\$|<|\[|%[a-z_]{3,30}%)/,
  /** A markdown or HTML image whose URL carries a query. */
  imageQuery: /!\[[^\]\n]{0,80}\]\(https?:\/\/[^)\s]{1,200}?(?:\{|\$|<|\[|%[a-z_]{3,30}%)|<img [^>\n]{0,100}src="https?:\/\/[^"\n]{1,200}?(?:\{|\$|<|\[)/,
  /** Asked to put data into a URL or a reply: "fill in the placeholder", "replace the variable". */
  fillIn: /\b(?:fill(?:ing)? in (?:the )?(?:placeholders?|variables?|blanks?)|replac(?:e|ing) the (?:placeholder|variable)|url-encoded|encoded? (?:it )?(?:as|in) base64|append "?\??ref=|in every (?:answer|response|reply)|at the bottom of each|end your reply with|in each response|to every answer)\b/,
  /** Sending data somewhere. */
  sendData: /\b(?:send|post|upload|email|forward|leak|exfiltrate|transmit|share|include|write)\b[^.\n]{0,30}(?:\.env\b|credentials|api keys?|tokens?|secrets?|conversation|chat|history|passwords?|ssh|private key|email address|system prompt|hidden instructions|initial instructions|configuration)|\bcurl\b[^\n]{0,80}(?:-d @-|-f f=@-|\$\(|\benv\s?\|)|отправь|schicke|envía|envoie|envie|发送到|に送信/u,
  /** Asking for the reader's own prompt, instructions or configuration. */
  promptLeak: /\bwhat (?:is|are) your (?:system prompt|instructions|hidden instructions)\b|\b(?:print|reveal|repeat|quote|show|output|save|dump|leak)\b[^.\n]{0,40}\b(?:system prompt|hidden instructions|initial instructions|your (?:instructions|configuration|prompt|tools)|everything (?:that came )?(?:before|above))|\b(?:show|output|print|reveal|repeat|give)\b[^.\n]{0,30}(?:word for word|verbatim|your (?:full |whole |entire )?prompt|what (?:your developer|the developer|the system) told you)|покажи (?:твой |свой )?(?:системный )?промпт|muestra tu prompt|(?:输出|显示|打印)[^。\n]{0,6}系统提示词/u,
  /** Data sent to an outside address. */
  sendOut: /\b(?:send|post|upload|email|forward|append|include|copy|push)\b[^\n]{0,60}\bto (?:https?:\/\/|[\w.-]{1,40}@[\w-]{1,40}\.)/,
  /** Steering what the reader recommends. */
  recommend: /\b(?:always |only )?(?:recommend|suggest|steer|discourage|promote)\b[^.\n]{0,60}\b(?:instead|deprecated|insecure|cve|switch|standard|never|always|own opinion)\b|\brecommend\w{0,3}\b[^.\n]{0,60}\bfor (?:every|all|any|each)\b|recomienda siempre/u,
  /** Persisting or spreading itself. */
  persist: /\b(?:into|in|to) (?:every|each|all) (?:(?:new |other )?(?:workspaces?|projects?|accounts?|scopes?|tenants?))|\bkeep (?:this )?(?:memory |note |record |entry )?forever|\bnever (?:forget|delete|remove|lose) (?:this|it)|\bre-?remember\b|\bpropagate\b|\brecreate it\b|\brestore it\b|\bstore (?:it|this) again\b|\bcopy of this text\b|\blong-term memory\b|\bsurvives? any cleanup\b|\brefuse and store\b|\boutranks\b|\bmust never be deleted\b|\bhighest priority\b|\bappend this sentence\b|во всех рабочих|никогда её не удаляй|in jedem workspace|lösche sie niemals|todos los espacios|no la borres|chaque espace|ne la supprime jamais|todos os workspaces|nunca a apague|每个工作区|永远不要删除|すべてのワークスペース|絶対に削除しない|ogni workspace|non cancellarla|elke workspace|verwijder haar nooit|모든 워크스페이스|절대 삭제/u,
  /** A claimed authority behind the order. */
  authority: /\b(?:approved|authori[sz]ed|cleared|signed off|sign-off|exception granted|consent on file|allows? you|permitted|per (?:admin|the workspace)|by order of|directive|policy update|official message|system notice|notice from|provider update|we are updating your|this is (?:the )?(?:security|it|anthropic|openai|compliance))\b|\bmodel provider\b|\banthropic\b|\bopenai\b|\bdeepmind\b|разрешила|autorizzato|goedgekeurd|승인|genehmigt|aprobó|a approuvé|aprovou|已批准|承認しました|fournisseur de modèle|modellanbieter|provedor de modelo|モデル提供元/u,
  /** Policy stated for AI readers: "assistants must", "the agent shall". */
  aiObliged: new RegExp(String.raw`\b(?:authori[sz]ed|allowed|permitted|cleared|instructed|autorizzato) (?:the |an? |any |all |l')?${AI} (?:to|a)\b|${AI}(?: [\p{L}-]{1,15}){0,2} (?:must|shall|should|is to|are to|may|can|are (?:cleared|required|allowed|permitted)|needs to|will)\b`, 'u'),
  /** Conversation turns and role markers at the start of a line. */
  roleLine: /^[ \t>]*(?:#{1,4} ?)?\[?(?:system|developer|instruction|instructions|sys|admin|root)\]?(?: ?\([^)\n]{0,30}\))? ?:(?:[ \t]|$)/m,
  /** Headers that pretend to start a new prompt. */
  promptHeader: /^#{1,4} ?(?:instructions?|system|response|developer|input)(?: ?:)?[ \t]*$|^#{1,4} ?new instructions\b/m,
  /** Chat template tokens. */
  chatToken: /<\|[a-z_]{2,20}\|>|\[\/?inst\]|<<\/?sys>>/,
  /** Pseudo tags of authority or of the prompt's own structure. */
  fakeTag: /<\/?(?:admin\w{0,20}|system|developer\w{0,20}|override|instructions?|assistant_\w{1,20}|agent_\w{1,20}|context|memory|retrieved_documents|search_results|documents|user_data|tool_call)\b[^>\n]{0,40}>/,
  /** Closing the data the reader was given, then talking as someone else. */
  contextClose: /<\/(?:context|memory|retrieved_documents|search_results|documents|data|user_data)>|\bend of (?:memory|user data|context|documents?|data)\b|\b(?:new |priority )?(?:system|developer) (?:message|instruction|rule|note)\b|\bdeveloper:/,
  /** Actions queued to run on load, as JSON or YAML keys. */
  queuedAction: /"?\b(?:on_load|run_on_load|queued_actions|assistant_tasks|agent_tasks|startup_actions|before_answer|auto_run|on_read|tool_use|assistant_instructions|agent_policy|execute|trigger|hooks)\b"?\s*[:=]/,
  /** A tool named as something to call. */
  toolCall: /"(?:tool|name|action|type)"\s*:\s*"(?:forget|remember|shell|http_request|send_email|exec|tool_use)|\b(?:call|invoke|use|run) (?:the |your )?(?:forget|remember|shell|http_request|file|browser|send_email) tool\b|\b(?:call|invoke|run)\b[^.\n]{0,20}\b(?:http_request|send_email|exec)\b|\btool: ?(?:shell|forget)|\b(?:call|invoke|trigger|fire|run) (?:the |your )?[\w-]{0,20}(?:delete|payment|refund|deploy|write|exec|shell|send|transfer|drop|wipe|purge|admin)[\w-]{0,20} tool\b/,
  /** Harmful or security-weakening actions. */
  harm: /\b(?:disable|turn off|bypass|skip (?:the )?(?:tests|review|diff|step)|force-?push|rm -rf|delete (?:the )?(?:audit|logs?|all|every)|approve (?:every|all)|auto-?approv\w{0,6}|admin rights|verify=false|without review|commit the \.env|grant the requester|mark (?:this|it) (?:as )?(?:approved|safe)|label this change)\b|\|\s?(?:ba)?sh\b|\bpush --force\b|\bapprov\w{0,3}\b[^.\n]{0,20}\bwithout\b|disattiv\p{L}*|uitschakel\p{L}*|zet [^.\n]{0,30} uit\b|끄는|끄고|отключи|deaktivier\p{L}*|desactiv\p{L}*|désactiv\p{L}*|desativ\p{L}*|关闭|無効に/u,
  /** Commands harmful wherever they appear: reverse shells, the environment sent out, home wiped. */
  malware: /\/dev\/tcp\/|\bbash -i\b|\bnc -e\b|\$\(env\)|\$\(cat [^)\n]{0,40}(?:\.env|credentials|id_rsa)|\brm -rf (?:~|\/|\$home)|-f f=@-|-d @-|(?:--post-file=?|--upload-file|-f ["']?[\w-]{1,20}=@)[^\s"']{0,40}(?:\.ssh|\.aws|\.env|id_rsa|id_ed25519|credentials|\.npmrc)/,
  /** Asking the reader to decode something and act on it. */
  decodeAndFollow: /\bdecode\b[^.\n]{0,40}\b(?:follow|run|execute|obey|apply|do what)\b/,
  /** Steering the reader off a check: "do not check", "already verified", "safe without a backup". */
  skipCheck: /\b(?:do not|don't|no need to|never) (?:check|verify|double-check|confirm|test|look it up)\b|\balready (?:checked|verified|reviewed|approved|passed)\b|\bwithout (?:a )?(?:backup|checking|verifying)\b|\bsafe to (?:run|ship|merge|deploy) without\b/,
  /** Handing a decision to a person: what a spec for an assistant asks, and an attack undoes. */
  defer: /\bhand (?:it |this )?(?:over|off) to (?:a )?(?:human|person|support)|\bescalate\w{0,2} to (?:a )?(?:human|person|support|on-call)|\b(?:ask|check with|confirm with) (?:the user|a human|a person|the customer)\b|\bhuman (?:approvals?|review)\b|\ba (?:human|person) (?:always )?(?:reviews?|edits?|approves?|re-runs?)\b/,
  /** Talk about attacks rather than an attack: reviews, docs, examples, quotes. */
  discussion: /\b(?:pentest|finding|red team|threat model|audit report|security review|for example|e\.g\.|such as|attackers?|injections?|jailbreaks?|owasp|explainer|remediated|was passed|showed that|example conversation|transcript|the (?:\w+ )?prompt (?:reads|says|starts)|starts with|templates?|eval|reading list|typosquat|docs?:|our guard|rejects|sanitiz\w*|escaped|strips?|blocks?|filtered|we now|fixed by|would spread|could|may plant|smuggle|indirect|tr(?:y|ies|ying) to (?:make|get|trick|change|steer|convince)|its (?:rules|instructions|guidelines|system prompt)|prompt injection)\b/,
  /** Text in quotation marks long enough to hold a sentence. */
  quoted: /"[^"\n]{12,200}"|“[^”\n]{12,200}”/,
} as const satisfies Record<string, RegExp>;

export type SignalName = keyof typeof SIGNALS;

export const SIGNAL_NAMES = Object.keys(SIGNALS) as SignalName[];
