/**
 * Turns one window of text into the sparse feature vector the planted-instruction model scores:
 * the behaviour signals (signals.ts), the signals that matter only when the text addresses the AI
 * reader, and hashed word n-grams and pieces of words, which the model is fitted to lean on less.
 */
import { SIGNAL_NAMES, SIGNALS, type SignalName } from './signals.ts';

/** Signals that say what the text directs; each counts again when the reader is addressed. */
const DIRECTED: readonly SignalName[] = [
  'future',
  'trigger',
  'tellUser',
  'secrecy',
  'harm',
  'sendData',
  'persist',
  'authority',
  'override',
  'ruleChange',
  'fillIn',
  'toolCall',
  'urlPlaceholder',
  'imageQuery',
  'promptLeak',
  'sendOut',
  'recommend',
  'queuedAction',
  'persona',
  'malware',
  'decodeAndFollow',
  'skipCheck',
  'imperative',
];

/** Ordinary in notes for people (runbooks, support macros); they count only when the AI reader is addressed. */
const ONLY_WHEN_ADDRESSED: ReadonlySet<SignalName> = new Set(['harm', 'tellUser', 'trigger', 'future', 'authority', 'imperative']);

/**
 * Kinds of behaviour; a kind present at all is a feature every style of that kind trains. Directing
 * is a kind only when the reader is addressed: people direct people all the time. A bare imperative
 * to the reader is its own feature, not a kind: a team's rules for its own assistant are imperatives
 * to it too. A command that hands the machine or its secrets to someone (a reverse shell, an upload
 * of keys) is of two kinds: it opens a channel out and it manipulates.
 */
export const KINDS: Readonly<Record<string, readonly SignalName[]>> = {
  channel: ['urlPlaceholder', 'imageQuery', 'fillIn', 'sendData', 'sendOut', 'promptLeak', 'malware'],
  structure: ['roleLine', 'promptHeader', 'chatToken', 'fakeTag', 'contextClose', 'queuedAction', 'toolCall'],
  manipulation: ['secrecy', 'override', 'ruleChange', 'persona', 'persist', 'recommend', 'malware', 'decodeAndFollow', 'skipCheck'],
  directive: ['future', 'trigger', 'tellUser', 'harm', 'authority'],
};
const ADDRESSED_ONLY_KINDS: ReadonlySet<string> = new Set(['directive']);
const KIND_NAMES = Object.keys(KINDS);

/** A dialogue between a person and a bot (both sides present): a transcript, not a planted turn. */
const PERSON_TURN = /^[ \t>]*(?:user|customer|human|client)\s?:/m;
const BOT_TURN = /^[ \t>]*(?:assistant|bot|ai|agent)\s?:/m;
const BOT_TURNS = /^[ \t>]*(?:assistant|bot|ai|agent)\s?:/gm;

export const STRUCTURAL_NAMES: readonly string[] = [
  ...SIGNAL_NAMES,
  'dialogue',
  'plantedAnswer',
  'quotedBehaviour',
  ...DIRECTED.map((name) => `addressed+${name}`),
  ...KIND_NAMES.map((name) => `kind:${name}`),
  ...KIND_NAMES.map((name) => `addressed+kind:${name}`),
  'behaviours',
];
export const STRUCTURAL_COUNT = STRUCTURAL_NAMES.length;
export const HASH_BITS = 16;
export const FEATURE_COUNT = STRUCTURAL_COUNT + (1 << HASH_BITS);

/** Sparse features: parallel arrays of indexes and values. */
export interface Features {
  readonly indexes: Int32Array;
  readonly values: Float32Array;
}

/** Letters with their combining marks: Devanagari's vowel signs and Arabic's vowels are marks. */
const TOKEN = /[\p{L}\p{M}\p{N}_]+|[^\s\p{L}\p{M}\p{N}]/gu;
const CJK = /[\u3040-\u30ff\u3400-\u9fff]/u;
const MAX_TOKENS = 400;
/** A quotation long enough to hold a sentence; not an attribute's value (`src="…"`), which is markup. */
const QUOTED = /(?<!=)"[^"\n]{12,300}"|(?<![\p{L}\p{N}=])'[^'\n]{12,300}'(?![\p{L}\p{N}])|[“„][^”“\n]{12,300}[”“]|«[^»\n]{12,300}»|[“「『"][\u3040-\u30ff\u3400-\u9fff][^”」』"\n]{3,300}[”」』"]/gu;
const CODE_SPAN = /`[^`\n]{4,300}`/g;
/**
 * What comes right before a value in data: a JSON key (`"note": "…"`), an array's start, a CSV cell's
 * comma, a YAML or header key at a line start (`description: "…"`). Read over the 64 characters
 * before a quotation.
 */
const BEFORE_VALUE = /(?:,|\[|":[ \t]?|(?:^|\n)[ \t]{0,20}[\w.-]{1,40}:[ \t]?)$/;
/** A line that opens or closes a fenced code block. */
const FENCE = /^[ \t]{0,3}(?:```|~~~)/;

/**
 * The text with what it quotes or shows as code blanked: quotations, code spans and fenced code
 * blocks. A comment inside them is an example a review or a doc shows, not a part hidden from people
 * (rendered, code shows it; a quotation is read where it is written, with the plain text).
 */
export function withoutShownText(text: string): string {
  let fenced = false;
  const unfenced = text.split('\n').map((line) => {
    const fence = FENCE.test(line);
    if (fence) fenced = !fenced;
    return fenced && !fence ? '' : line;
  });
  return unfenced.join('\n').replace(QUOTED, ' "" ').replace(CODE_SPAN, ' `` ');
}
/** A model's own prompt format: written outside quotations and code spans, it speaks to a model. */
const PROMPT_STRUCTURE: readonly SignalName[] = ['chatToken', 'promptHeader', 'contextClose', 'fakeTag'];
/** Structure counts only outside quotations and code spans: docs show prompt syntax all the time. */
const STRUCTURE_OUTSIDE_QUOTES: ReadonlySet<SignalName> = new Set(['chatToken', 'fakeTag', 'roleLine', 'promptHeader', 'contextClose']);
const NGRAM_VALUE = 0.5;
/** Words are also read as their pieces of four characters (with the word's edges), at most 30 per word. */
const PIECE = 4;
const MAX_PIECES = 30;
/** Signals that describe the text itself (it quotes, it discusses), wherever they are found. */
const REPORTED: ReadonlySet<SignalName> = new Set(['quoted', 'discussion']);

/**
 * `unseen`: the text is what a person reading the record does not see (its hidden parts, its decoded
 * payloads). Nobody hides a note for people, so it addresses the machine that reads it: the AI reader.
 */
export function featuresOf(text: string, unseen = false): Features {
  const lowered = spelledOut(text.toLowerCase());
  const hits = new Map<number, number>();
  const anywhere = signalsIn(lowered);
  // Second person in a line of a chat export speaks to the people in that chat.
  if (anywhere.has('youMust') && lowered.split('\n').every((line) => SPEAKER_TURN.test(line) || !SIGNALS.youMust.test(line))) {
    anywhere.delete('youMust');
  }
  if (PERSON_TURN.test(lowered) && BOT_TURN.test(lowered)) {
    hits.set(SIGNAL_NAMES.length, 1);
    // A transcript labels the bot's turns with its name: that names a speaker, not an addressee,
    // unless a turn promises later behaviour, which a planted exchange does.
    if (anywhere.has('aiAddress') && !anywhere.has('future') && !SIGNALS.aiAddress.test(lowered.replace(BOT_TURNS, ''))) {
      anywhere.delete('aiAddress');
    }
  }
  // Who is addressed and what is directed is read outside quotations: a review quoting an attack
  // does not address the reader.
  // Taking text out finds nothing new: only the signals found anywhere are looked for again.
  // A value in data is read by whoever reads the data: it is not reported speech, and what it
  // directs counts, except in a text that discusses attacks, where a value is an example (a labelled
  // test case, a quoted repro). Second person in a value speaks to the data's own user (an app's
  // strings), so it never addresses the reader.
  const valuesCount = !anywhere.has('discussion');
  let valuesKept = false;
  const unquoted = lowered.replace(QUOTED, (quotation: string, at: number) => {
    if (!valuesCount || ((!quotation.startsWith('"') || !BEFORE_VALUE.test(lowered.slice(Math.max(0, at - 64), at))) && !SIGNALS.aiAddress.test(quotation))) return ' "" ';
    valuesKept = true;
    return quotation;
  });
  const reported = valuesKept ? lowered.replace(QUOTED, ' "" ') : unquoted;
  const outside = unquoted === lowered ? anywhere : signalsIn(unquoted, anywhere);
  const uncoded = unquoted.replace(CODE_SPAN, ' `` ');
  const prose = uncoded === unquoted ? outside : signalsIn(uncoded, [...STRUCTURE_OUTSIDE_QUOTES].filter((name) => anywhere.has(name)));
  // What a quotation says is reported, not done: behaviour counts where it is written outside quotes
  // (prompt syntax also outside code spans), and behaviour found only inside quotes is a feature of
  // its own, the mark of a review or a doc that quotes an attack.
  const present = new Set(
    [...anywhere].filter((name) => (STRUCTURE_OUTSIDE_QUOTES.has(name) ? prose.has(name) : outside.has(name) || REPORTED.has(name))),
  );
  if (DIRECTED.some((name) => anywhere.has(name) && !outside.has(name))) hits.set(SIGNAL_NAMES.length + 2, 1);
  present.forEach((name) => {
    if (!ONLY_WHEN_ADDRESSED.has(name)) hits.set(SIGNAL_NAMES.indexOf(name), 1);
  });
  // A conditional planted answer ("next time X comes up, say Y") directs the reader by itself.
  if ((outside.has('trigger') || outside.has('future')) && outside.has('tellUser')) hits.set(SIGNAL_NAMES.length + 1, 1);
  // A planted answer addresses whoever answers the user later: the AI reader.
  const planted = hits.has(SIGNAL_NAMES.length + 1);
  const addressed =
    unseen ||
    planted ||
    PROMPT_STRUCTURE.some((name) => present.has(name)) ||
    outside.has('promptLeak') ||
    outside.has('aiAddress') ||
    outside.has('aiObliged') ||
    (outside.has('youMust') && secondPersonDirects(reported));
  // An imperative directs the reader only where the reader is named: not in a hidden TODO for the
  // developers, nor in a transcript whose turns are labelled with the bot's name.
  const named = outside.has('aiAddress') && !hits.has(SIGNAL_NAMES.length);
  let behaviours = 0;
  DIRECTED.forEach((name, index) => {
    if (!outside.has(name)) return;
    const directs = name === 'imperative' ? named : addressed;
    if (directs || !ONLY_WHEN_ADDRESSED.has(name)) behaviours += 1;
    if (directs) hits.set(SIGNAL_NAMES.length + 3 + index, 1);
  });
  const kindsAt = SIGNAL_NAMES.length + 3 + DIRECTED.length;
  KIND_NAMES.forEach((kind, index) => {
    const signals = KINDS[kind] ?? [];
    if (!ADDRESSED_ONLY_KINDS.has(kind) && signals.some((name) => present.has(name))) hits.set(kindsAt + index, 1);
    if (addressed && signals.some((name) => outside.has(name) && (name !== 'imperative' || named))) hits.set(kindsAt + KIND_NAMES.length + index, 1);
  });
  hits.set(STRUCTURAL_COUNT - 1, Math.min(behaviours, 4) / 4);
  // Words inside quotations are reported speech: they do not speak for the text around them.
  addNgrams(unquoted, hits);
  const indexes = Int32Array.from(hits.keys());
  const values = Float32Array.from(hits.values());
  return { indexes, values };
}

/**
 * Chat shorthand and apostrophes left out, as people type in chat: read as the words they stand for.
 * Not "im", which is a German word.
 */
const SHORTHAND: ReadonlyMap<string, string> = new Map([
  ['u', 'you'],
  ['ur', 'your'],
  ['pls', 'please'],
  ['plz', 'please'],
  ['dont', "don't"],
  ['doesnt', "doesn't"],
  ['didnt', "didn't"],
  ['cant', "can't"],
  ['ive', "i've"],
  ['thats', "that's"],
  ['smth', 'something'],
  ['msg', 'message'],
  ['ppl', 'people'],
  ['abt', 'about'],
]);
/**
 * A short word standing alone between spaces and punctuation, as a word of SHORTHAND must: not part
 * of a token such as u+200b, u-boat, <|im_start|>, a_u or u.s.
 */
const SHORT_WORD = /(?<=^|[\s(["“‘])[a-z]{1,6}(?=$|[\s,!?;:)"”’…]|\.(?!\p{L}))/gu;

function spelledOut(lowered: string): string {
  return lowered.replace(SHORT_WORD, (word) => SHORTHAND.get(word) ?? word);
}

/**
 * Second person addresses whoever reads that sentence, so it addresses the reader only where it
 * directs something in the same line: a rules file's "don't merge your own PRs" two lines above
 * "disable the cron before the backfill" addresses people twice. A named AI reader (aiAddress,
 * aiObliged) addresses the whole note. An imperative alone does not make a line directed: second
 * person and imperatives fill every runbook.
 */
function secondPersonDirects(unquoted: string): boolean {
  return unquoted
    .split('\n')
    .some(
      (line) =>
        !SPEAKER_TURN.test(line) && SIGNALS.youMust.test(line) && DIRECTED.some((name) => name !== 'imperative' && SIGNALS[name].test(line)),
    );
}

/**
 * A line of a chat export: a timestamp (a bracket holding a digit) and a speaker's name before the
 * message ("[2024-02-03 21:32] priya: …", "gina [8:15 pm on 3 may]: …", "maria, 21/04/2024: …").
 * Its second person speaks to the people in that chat.
 */
const SPEAKER_TURN =
  /^[ \t]*(?:[[(][^\])\n\d]{0,30}\d[^\])\n]{0,30}[\])][ \t]?\p{L}{2,20}(?: \p{L}{1,20})?|\p{L}{2,20}(?: \p{L}{1,20})?(?: ?[[(][^\])\n\d]{0,30}\d[^\])\n]{0,30}[\])]|, [\d/.-]{6,10}))[ \t]?:/u;

/** An underscore between letters, as in a JSON key (`never_mention`): read as a space too. */
const SNAKE = /(?<=\p{L})_(?=\p{L})/gu;

/** The signals, of `among` (all by default), that the text holds. */
function signalsIn(lowered: string, among: Iterable<SignalName> = SIGNAL_NAMES): Set<SignalName> {
  const spaced = lowered.includes('_') ? lowered.replace(SNAKE, ' ') : lowered;
  return new Set(
    [...among].filter((name) => SIGNALS[name].test(lowered) || (spaced !== lowered && SIGNALS[name].test(spaced))),
  );
}

function addNgrams(lowered: string, hits: Map<number, number>): void {
  let previous = '';
  let count = 0;
  for (const match of lowered.matchAll(TOKEN)) {
    const token = match[0];
    if (CJK.test(token)) {
      // CJK has no spaces: its words are read as character pairs.
      for (let i = 0; i + 1 < token.length && i < 40; i += 1) setHash(hits, `c:${token.slice(i, i + 2)}`);
    }
    setHash(hits, `w:${token}`);
    if (token.length >= 3 && !CJK.test(token)) {
      // A word's pieces carry across its inflections and kindred languages (asistente, assistente, asystent).
      const padded = ` ${token} `;
      for (let i = 0; i + PIECE <= padded.length && i < MAX_PIECES; i += 1) setHash(hits, `t:${padded.slice(i, i + PIECE)}`);
    }
    if (previous !== '') setHash(hits, `b:${previous} ${token}`);
    previous = token;
    count += 1;
    if (count >= MAX_TOKENS) break;
  }
}

function setHash(hits: Map<number, number>, gram: string): void {
  hits.set(STRUCTURAL_COUNT + (fnv1a(gram) & ((1 << HASH_BITS) - 1)), NGRAM_VALUE);
}

/** 32-bit FNV-1a over UTF-16 code units: fast, stable across runs and machines. */
export function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}
