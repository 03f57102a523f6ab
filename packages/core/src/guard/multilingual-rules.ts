/**
 * The most common planted instructions in other languages: override, role change, system prompt
 * disclosure and command or tool orders. Latin-script words are written without diacritics because
 * normalization strips them; Cyrillic and CJK are matched as written.
 */
import { B_END, B_START, STEALTH, gap, words, compile } from './lexicon.ts';
import { type Gated, gated, passes } from './anchors.ts';

/** Word boundaries: the cheap ASCII `\\b` where the words are ASCII, a Unicode-aware one otherwise. */
function w(list: readonly string[]): string {
  const ascii = list.every((word) => !/[\u0080-\uffff]/.test(word));
  return ascii ? `\\b${words(list)}\\b` : `${B_START}${words(list)}${B_END}`;
}

/** A lexicon word as a gate needle: `инструкци\\p{L}*` becomes the prefix needle `инструкци*`. */
function needle(word: string): string {
  const prefix = word.replace(/\\p\{L\}\*$/, '*');
  // A phrase ("bo qua", "не следуй") is gated on its last word, which must be present too.
  return prefix.includes(' ') ? (prefix.split(' ').at(-1) ?? prefix) : prefix;
}

/** [verbs, objects, qualifiers] for "ignore all previous instructions". */
// prettier-ignore
const OVERRIDE_LEXICON: ReadonlyArray<readonly [readonly string[], readonly string[], readonly string[]]> = [
  // es, pt, it, fr, de, nl, pl, sv, id, vi share a shape: verb, qualifier and object within a few words.
  [
    ['ignora', 'ignore', 'ignorar', 'ignorez', 'ignorer', 'olvida', 'olvide', 'olvidar', 'descarta',
      'omite', 'oublie', 'oubliez', 'oublier', 'ignoriere', 'ignorieren', 'vergiss', 'vergessen',
      'missachte', 'dimentica', 'dimenticare', 'trascura', 'esqueca', 'esquece', 'desconsidere',
      'desconsidera', 'negeer', 'vergeet', 'zignoruj', 'ignoruj', 'zapomnij', 'ignorera', 'glom',
      'abaikan', 'lupakan', 'bo qua'],
    ['instrucciones', 'indicaciones', 'reglas', 'directrices', 'instructions', 'consignes', 'regles',
      'directives', 'anweisungen', 'instruktionen', 'regeln', 'vorgaben', 'richtlinien', 'istruzioni',
      'regole', 'direttive', 'instrucoes', 'regras', 'diretrizes', 'instructies', 'regels', 'instrukcje',
      'polecenia', 'zasady', 'instruktioner', 'regler', 'instruksi', 'perintah', 'aturan', 'huong dan',
      'chi dan', 'quy tac'],
    ['anteriores', 'previas', 'previos', 'todas', 'tus', 'sus', 'originales', 'precedentes', 'precedents',
      'anterieures', 'toutes', 'tes', 'vos', 'initiales', 'vorherigen', 'vorigen', 'bisherigen', 'obigen',
      'alle', 'deine', 'ihre', 'ursprunglichen', 'fruheren', 'precedenti', 'tutte', 'tue', 'originali',
      'suas', 'tuas', 'originais', 'ricevute', 'finora', 'date', 'recibidas', 'dadas', 'recues',
      'erhaltenen', 'bisher', 'recebidas', 'ontvangen', 'otrzymane', 'vorige', 'eerdere', 'je', 'jouw',
      'poprzednie', 'wszystkie', 'wczesniejsze', 'twoje', 'tidigare', 'alla', 'dina', 'sebelumnya',
      'semua', 'tat ca', 'truoc'],
  ],
  [
    ['игнорируй', 'игнорируйте', 'проигнорируй', 'проигнорируйте', 'игнорировать', 'забудь', 'забудьте',
      'отбрось', 'отмени', 'не следуй', 'ігноруй', 'проігноруй', 'забудь'],
    ['инструкци\\p{L}*', 'указани\\p{L}*', 'правил\\p{L}*', 'команд\\p{L}*', 'директив\\p{L}*',
      'інструкці\\p{L}*', 'вказівк\\p{L}*'],
    ['предыдущ\\p{L}*', 'прежн\\p{L}*', 'все', 'всё', 'свои', 'твои', 'ваши', 'системн\\p{L}*', 'выше',
      'ранее', 'изначальн\\p{L}*', 'попередн\\p{L}*', 'усі', 'всі', 'свої'],
  ],
];

function overridePattern([verbs, objects, qualifiers]: readonly [
  readonly string[],
  readonly string[],
  readonly string[],
]): RegExp {
  const verb = w(verbs);
  const object = w(objects);
  const qualifier = w(qualifiers);
  return compile(
    `${verb}(?: \\S+){0,3}? ${qualifier}(?: \\S+){0,3}? ${object}|${verb}(?: \\S+){0,2}? ${object} ${qualifier}`,
  );
}

// prettier-ignore
const PATTERNS: ReadonlyArray<readonly [string, Gated]> = [
  ...OVERRIDE_LEXICON.map(
    ([verbs, objects, qualifiers]) =>
      [
        'instruction override',
        gated([verbs.map(needle), objects.map(needle)], overridePattern([verbs, objects, qualifiers])),
      ] as const,
  ),
  [
    'instruction override',
    gated(
      [['忽略', '忽视', '无视', '無視', '忘记', '忘掉', '忘記', '不要理会', '不要遵守', '别管']],
      /(?:忽略|忽视|无视|無視|忘记|忘掉|忘記|不要理会|不要遵守|别管)(?:掉)?[^。！？\n]{0,6}(?:之前|以前|先前|上面|上述|以上|前面|所有|全部|你的|一切)[^。！？\n]{0,10}(?:指令|指示|说明|說明|规则|規則|命令|提示|要求|设定|設定)/u,
    ),
  ],
  [
    'instruction override',
    gated(
      [['無視', '忘れ']],
      /(?:以前|これまで|前|上記|上|先ほど|すべて|全て)の?(?:すべての|全ての)?(?:指示|命令|ルール|指令|プロンプト|設定)[^。\n]{0,12}(?:無視|忘れ)/u,
    ),
  ],
  [
    'instruction override',
    gated(
      [['무시', '잊어']],
      /(?:이전|앞의|위의|모든|기존)[^.\n]{0,12}(?:지시|지침|명령|규칙|프롬프트)[^.\n]{0,12}(?:무시|잊어)/u,
    ),
  ],
  [
    'instruction override',
    gated(
      [['تجاهل', 'انس', 'إنس']],
      /(?:تجاهل|تجاهلي|انس|إنس)[^.\n]{0,30}(?:التعليمات|تعليمات|الأوامر|القواعد)/u,
    ),
  ],
  [
    'instruction override',
    gated([['अनदेखा', 'नजरअंदाज', 'भूल']], /(?:निर्देश|नियम)[^।.\n]{0,30}(?:अनदेखा|नजरअंदाज|भूल)/u),
  ],
  [
    'instruction override',
    gated(
      [['gormezden', 'yok', 'unut']],
      /(?:talimat|yonerge|kural)\p{L}*[^.\n]{0,30}(?:gormezden gel|yok say|unut)/u,
    ),
  ],
  [
    'role change',
    gated(
      [
        ['eres', 'tu', 'etes', 'desormais', 'bist', 'sind', 'sei', 'voce', 'bent', 'ben', 'jestes', 'ar',
          'kamu', 'теперь', 'отныне', 'этого', 'тепер'],
      ],
      compile(
        `${B_START}(?:ahora eres|a partir de ahora eres|desde ahora eres|tu es maintenant|vous etes maintenant|tu es desormais|desormais,? tu es|a partir de maintenant,? tu es|du bist (?:jetzt|nun|ab jetzt|ab sofort)|ab (?:jetzt|sofort),? bist du|sie sind (?:jetzt|nun)|(?:ora|adesso|da ora in poi) sei|(?:agora|a partir de agora),? voce e|je bent nu|jij bent nu|vanaf nu ben je|jestes teraz|od teraz jestes|du ar nu|sekarang kamu adalah|kamu sekarang adalah|теперь ты|ты теперь|отныне ты|с этого момента ты|тепер ти|ти тепер)${B_END}`,
      ),
    ),
  ],
  [
    'role change',
    gated(
      [['你现在', '從現在', '从现在', '你現在', 'あなたは', '今から', 'これから', '이제']],
      /你现在是|從現在開始你是|从现在开始你是|你现在扮演|从现在起你是|你現在是|あなたは今から|今からあなたは|これからあなたは|너는 이제|당신은 이제|이제부터 (?:당신|너)는/u,
    ),
  ],
  [
    'system prompt exfiltration',
    gated(
      [
        ['sistema', 'systeme', 'system', 'systemprompt', 'systemanweisung', 'systemanweisungen',
          'systemnachricht', 'systeemprompt', 'systemowy', 'sistem', 'thong', 'системный', 'системные',
          'системного', 'системную', 'системное', 'системных', 'системным', 'системной'],
        ['muestra', 'muestrame', 'muestre', 'revela', 'revelame', 'imprime', 'dime', 'ensena', 'ensename',
          'montre', 'montrez', 'revele', 'revelez', 'affiche', 'affichez', 'donne', 'donnez', 'zeig',
          'zeige', 'zeigen', 'gib', 'verrate', 'nenne', 'mostra', 'mostrami', 'mostrar', 'rivela',
          'rivelami', 'stampa', 'stampami', 'dimmi', 'mostre', 'envie', 'toon', 'geef', 'pokaz',
          'wyswietl', 'ujawnij', 'goster', 'visa', 'tampilkan', 'tunjukkan', 'tiet', 'hien', 'покажи',
          'выведи', 'раскрой', 'напиши', 'скажи', 'покажіть'],
      ],
      compile(
        `${w(['muestra\\p{L}*', 'revela\\p{L}*', 'imprime', 'dime', 'ensena\\p{L}*', 'montre\\p{L}*',
          'revele\\p{L}*', 'affiche\\p{L}*', 'donne\\p{L}*', 'zeig\\p{L}*', 'gib', 'verrate', 'nenne',
          'mostra\\p{L}*', 'rivela\\p{L}*', 'stampa\\p{L}*', 'dimmi', 'mostre', 'envie', 'toon', 'geef',
          'pokaz', 'wyswietl', 'ujawnij', 'goster', 'visa', 'tampilkan', 'tunjukkan', 'tiet lo',
          'hien thi', 'покажи', 'выведи', 'раскрой', 'напиши', 'скажи',
          'покажіть'])}${gap(40)}(?:prompt del sistema|mensaje del sistema|instrucciones del sistema|prompt systeme|invite systeme|message systeme|systemprompt|system-prompt|systemanweisung\\p{L}*|systemnachricht|prompt di sistema|istruzioni di sistema|prompt do sistema|instrucoes do sistema|systeemprompt|prompt systemowy|sistem istem\\p{L}*|prompt sistem|loi nhac he thong|системн\\p{L}* (?:промпт|промт|подсказк\\p{L}*|инструкци\\p{L}*|сообщени\\p{L}*))`,
      ),
    ),
  ],
  [
    'system prompt exfiltration',
    gated(
      [['系统', '系統', 'システム', '시스템', 'النظام', 'सिस्टम']],
      /(?:显示|输出|告诉我|告訴我|打印|泄露|给我|發送|发送|表示|見せ|教え|출력|보여|알려|اكشف|أظهر|اعرض|दिखा|बता)[^。\n]{0,20}(?:系统提示|系統提示|系统指令|系统消息|システムプロンプト|システム指示|시스템 프롬프트|موجه النظام|सिस्टम प्रॉम्प्ट)|(?:系统提示|系統提示|システムプロンプト|시스템 프롬프트|موجه النظام|सिस्टम प्रॉम्प्ट)[^。\n]{0,20}(?:显示|输出|告诉|打印|泄露|表示|見せ|教え|출력|보여|알려|اكشف|दिखा)/u,
    ),
  ],
  [
    'secret exfiltration',
    gated(
      [
        ['envia', 'envie', 'manda', 'envoie', 'envoyez', 'sende', 'schicke', 'invia', 'отправь', 'пришли',
          'перешли'],
      ],
      compile(
        `${w(['envia', 'envie', 'manda', 'envoie', 'envoyez', 'sende', 'schicke', 'invia', 'отправь',
          'пришли',
          'перешли'])}${gap(60)}(?:\\.env|api|clave|chave|cle|schlussel|chiav|ключ|секрет|парол|token|password)${gap(60)}(?:https?://|[\\w.+-]+@[\\w-]+\\.)`,
      ),
    ),
  ],
  [
    'command execution directive',
    gated(
      [
        ['fuhre', 'fuhren', 'ejecuta', 'ejecute', 'executez', 'execute', 'executa', 'esegui', 'выполни',
          'выполните', 'запусти', 'виконай', 'uruchom', 'jalankan'],
        ['without', 'sin', 'sans', 'ohne', 'senza', 'sem', 'не', 'rm', 'curl', 'wget', 'sudo', 'never',
          'not', 'don', 'hide', 'keep', 'silently', 'secretly', 'quietly'],
      ],
      compile(
        `${w(['fuhre', 'fuhren sie', 'ejecuta', 'ejecute', 'executez', 'execute', 'esegui', 'executa',
          'выполни', 'выполните', 'запусти', 'виконай', 'uruchom',
          'jalankan'])}${gap(80)}(?:${STEALTH}|rm -rf|curl |wget |sudo )`,
      ),
    ),
  ],
  [
    'command execution directive',
    gated(
      [
        ['fuhre', 'ejecuta', 'executez', 'esegui', 'выполни', 'запусти'],
        ['without', 'sin', 'sans', 'ohne', 'senza', 'sem', 'не', 'never', 'not', 'don', 'hide', 'keep',
          'silently', 'secretly', 'quietly'],
      ],
      compile(
        `(?:${STEALTH})${gap(80)}${w(['fuhre', 'ejecuta', 'executez', 'esegui', 'выполни', 'запусти'])}`,
      ),
    ),
  ],
  [
    'tool call directive',
    gated(
      [
        ['outil', 'herramienta', 'werkzeug', 'strumento', 'ferramenta', 'инструмент'],
        ['appelle', 'appelez', 'llama', 'invoca', 'ruf', 'rufe', 'chiama', 'chame', 'вызови', 'запусти'],
      ],
      compile(
        `${w(['appelle', 'appelez', 'llama', 'invoca', 'ruf', 'rufe', 'chiama', 'chame', 'вызови',
          'запусти'])}${gap(30)}${w(['outil', 'herramienta', 'werkzeug', 'strumento', 'ferramenta',
          'инструмент'])}${gap(80)}(?:${STEALTH}|tous|todos|alle|tutti|все)`,
      ),
    ),
  ],
  [
    'tool call directive',
    gated([['工具', 'ツール', '도구']], /(?:调用|呼び出|호출)[^。\n]{0,20}(?:工具|ツール|도구)/u),
  ],
];

export function findMultilingualInstruction(text: string): string | null {
  for (const [reason, rule] of PATTERNS) {
    if (passes(rule, text)) return reason;
  }
  return null;
}
