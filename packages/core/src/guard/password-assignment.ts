/**
 * Finds literal values assigned to secret-named keys: `DB_PASSWORD=...`, `api_secret: "..."`,
 * `"token": "..."`. Only the value is redacted, and only when it looks like a real secret: long
 * enough, random enough (an entropy floor), and not a placeholder, path, identifier or prose.
 */
import { trimEnd, trimStart, type SecretFinding } from './secret-finding.ts';

/**
 * A secret-named key followed by an assignment: the keyword ends the key ("DB_PASSWORD=",
 * "apiSecret:"), so the match starts at the keyword and the engine scans for keywords, not keys.
 */
const KEY_AND_CONNECTOR =
  /(?:passwords?|passwd|passphrase|pwd|secrets?|tokens?|api[_-]?keys?|apikey|access[_-]?keys?|auth[_-]?keys?|private[_-]?keys?|client[_-]?secret|credentials?|(?<![a-z])pass)["'`]?[ \t]*(?::=|=>|->|:|=)[ \t]*/gi;
/** The value right after the connector: quoted, or a run without spaces and brackets. */
const VALUE = /"([^"\n]{1,300})"|'([^'\n]{1,300})'|`([^`\n]{1,300})`|([^\s,;'"`<>(){}[\]]{1,300})/y;

/** Values that stand for a secret without being one. */
const PLACEHOLDER =
  /^(?:[$<{%!*#]|\.{3}|x{3,}|\*{3,}|(?:none|null|nil|undefined|true|false|yes|no|empty|required|optional|changeme|change_me|example|placeholder|redacted|secret|password|string|number|boolean|todo|tbd|n\/a)$|your[_-]|\[redacted)/i;
/** `os.environ`, `settings.API_KEY`, `env.TOKEN`: code that reads a secret, not the secret. */
const DOTTED_IDENTIFIER = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)+$/;
const PATH = /^(?:~?\/|\.{1,2}\/|[A-Za-z]:\\)/;
/** A URL, an email address or a handle: where something goes, not the secret. */
const ADDRESS = /^(?:[a-z][a-z0-9+.-]{1,20}:\/\/|@|[^@\s]{1,64}@[^@\s]{1,200}\.[a-z]{2,}$)/i;

const MIN_LENGTH = 6;
const ENTROPY_FLOOR = 2.5;
const SINGLE_CLASS_MIN_LENGTH = 16;
const SINGLE_CLASS_ENTROPY_FLOOR = 3;

/** Shannon entropy in bits per character. */
export function shannonEntropy(value: string): number {
  const counts = new Map<string, number>();
  for (const char of value) counts.set(char, (counts.get(char) ?? 0) + 1);
  const length = [...value].length;
  let bits = 0;
  for (const count of counts.values()) {
    const p = count / length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

function characterClasses(value: string): number {
  return [/[a-z]/, /[A-Z]/, /[0-9]/, /[^A-Za-z0-9]/].filter((pattern) => pattern.test(value)).length;
}

/** As random as a generated password: three kinds of character and a high entropy. */
function isRandom(value: string): boolean {
  return characterClasses(value) >= 3 && shannonEntropy(value) >= 3.2;
}

/** Prose has spaces between short words; a passphrase in quotes may too, but then it is long. */
function isProse(value: string): boolean {
  const words = value.trim().split(/\s+/);
  return words.length >= 3 && words.every((word) => /^[A-Za-z'’.,!?-]+$/.test(word));
}

/** One word as prose writes it ("Authorization:", "Kubernetes.", "affiché"): the next word of a sentence. */
const SENTENCE_WORD = /^\p{Lu}?\p{Ll}{4,14}[:.]?$/u;

export function looksLikeSecretValue(value: string): boolean {
  const trimmed = value.trim();
  if (trimmed.length < MIN_LENGTH || SENTENCE_WORD.test(trimmed)) return false;
  if (PLACEHOLDER.test(trimmed) || DOTTED_IDENTIFIER.test(trimmed) || PATH.test(trimmed) || ADDRESS.test(trimmed)) return false;
  // A vendor's documented example (AWS's `wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY`), as secretlint reads it.
  if (trimmed.includes('EXAMPLE')) return false;
  if (isProse(trimmed)) return false;
  const entropy = shannonEntropy(trimmed);
  if (entropy < ENTROPY_FLOOR) return false;
  if (characterClasses(trimmed) >= 2) return true;
  return trimmed.length >= SINGLE_CLASS_MIN_LENGTH && entropy >= SINGLE_CLASS_ENTROPY_FLOOR;
}

/**
 * A secret named in prose, then stated a few words later: "the prod database password is …", "pw is
 * …", "the passphrase for the signing key is …", "I set the admin password to …", "das Passwort für
 * den Server ist …". The words after the name are read one by one (no pattern spans them): after each
 * connecting word, the next word is a candidate, kept only if it looks like a secret.
 */
const SECRET_NAME =
  /(?<![A-Za-z0-9_])(?:pass(?:words?|wd|phrase|code)|(?:recovery|backup) codes?|wiederherstellungscode|code de récupération|código de recuperación|wachtwoordzin|frase-senha|frase de contraseña|phrase secrète|pw|pwd|secret(?: access)?(?: key)?|(?:api|access|private|signing|deploy) key|token|passwort|kennwort|mot de passe|contraseña|clave|senha|mdp|пароль|wachtwoord|parola d'ordine|hasło|şifre|密码|口令|パスワード|비밀번호)(?![A-Za-z0-9_-])/giu;
const PASSPHRASE = /phrase|frase|zin$/i;
const CONNECTOR = new Set([
  'is', 'was', 'are', 'to', 'as', '=', ':', '-', '—', '->', 'now', 'ist', 'lautet', 'war', 'est', 'es', 'era', 'é',
  'è', 'são', 'это', 'jest', 'wynosi', '是', '为', '為', 'は',
]);
/** How many words after the name a connector may come. */
const WORDS_AFTER_NAME = 10;
const WORD = /\S+/g;

const QUOTE_PAIRS: Readonly<Record<string, string>> = { '"': '"', "'": "'", '`': '`', '“': '”', '«': '»', '「': '」', '『': '』' };
/** A value in brackets or quotes soon after the name, where words have no spaces between them (Japanese, Chinese). */
const BRACKETED = /[「『“]([^」』”\n]{6,100})[」』”]/;

/** The candidate at a word: the word itself, or the whole quotation it opens (a passphrase may hold spaces). */
function candidateAt(clause: string, word: RegExpExecArray): { value: string; at: number } {
  const close = QUOTE_PAIRS[word[0][0] ?? ''];
  const end = close === undefined ? -1 : clause.indexOf(close, word.index + 1);
  if (close !== undefined && end !== -1 && end - word.index <= 100) {
    return { value: clause.slice(word.index + 1, end), at: word.index + 1 };
  }
  const value = trimEnd(trimStart(word[0], '"\'`«“'), '"\'`»”.,;:!?)>]');
  return { value, at: word.index + word[0].indexOf(value) };
}

function proseSecrets(text: string, into: SecretFinding[]): void {
  for (const name of text.matchAll(SECRET_NAME)) {
    const from = name.index + name[0].length;
    const sentence = text.slice(from, from + 200);
    const end = sentence.search(/[\n]|[.!?](?:\s|$)/);
    const clause = end === -1 ? sentence : sentence.slice(0, end + 1);
    const bracketed = BRACKETED.exec(clause.slice(0, 40));
    if (bracketed !== null && looksLikeSecretValue(bracketed[1] ?? '')) {
      const at = from + bracketed.index + 1;
      into.push({ start: at, end: at + (bracketed[1] ?? '').length, kind: 'password-assignment', source: 'generic' });
      continue;
    }
    const words = [...clause.matchAll(WORD)].slice(0, WORDS_AFTER_NAME + 1);
    // A candidate right after the name ("password Np5…"), or after a connecting word.
    for (let k = 0; k < words.length; k += 1) {
      const before = words[k - 1]?.[0];
      const word = words[k];
      if (word === undefined || (k === 0 && word.index === 0)) continue;
      const connected = before !== undefined && (CONNECTOR.has(before.toLowerCase()) || before.endsWith(':'));
      const candidate = candidateAt(clause, word);
      // A passphrase is words: after a connecting word, a quotation of them is the value.
      const phrase = connected && PASSPHRASE.test(name[0]) && candidate.value.length >= 16 && candidate.at > word.index;
      if (!phrase && !looksLikeSecretValue(candidate.value)) continue;
      // With no connecting word ("password Np5…"), only a value with both letters and digits; further
      // on ("пароль от админки теперь …"), only one as random as a generated password, with a digit
      // ("Staging-Server" is a name).
      const lettersAndDigits = /\d/.test(candidate.value) && /\p{L}/u.test(candidate.value);
      if (before === undefined && !lettersAndDigits) continue;
      if (before !== undefined && !connected && !(lettersAndDigits && isRandom(candidate.value))) continue;
      into.push({ start: from + candidate.at, end: from + candidate.at + candidate.value.length, kind: 'password-assignment', source: 'generic' });
      break;
    }
  }
}

/**
 * A password on a command line: `mysql -u root -pSECRET`, `sshpass -p SECRET`, `redis-cli -a SECRET`,
 * `docker login -u bot -p SECRET`, `curl -u user:SECRET`.
 */
const COMMAND_PASSWORD =
  /\b(?:(?:mysql|mysqldump|mysqladmin|mariadb)\b[^\n|;&]{0,120}? -p|sshpass -p |redis-cli\b[^\n|;&]{0,120}? -a |(?:docker|podman|helm|oras) (?:registry )?login\b[^\n|;&]{0,120}? (?:-p|--password) |curl\b[^\n|;&]{0,120}? (?:-u ?|--user[ =])[^\s:'"]{1,64}:)['"]?([^\s'"`;|&]{6,200})/g;
/**
 * A login stated in prose: "ssh in as ops with …", "use admin and …". The value must mix three kinds
 * of character: "as root with sudo", "as v2 with node20" are not logins.
 */
const LOGIN_IN_PROSE = /\b(?:as|use|user)[ \t]+[A-Za-z0-9._-]{1,32}[ \t]+(?:with|and|pass(?:word)?|\/)[ \t]+([^\s,;'"`]{8,100})/gi;
/** A line of a .pgpass file: host:port:database:user:password. */
const PGPASS_LINE = /^[A-Za-z0-9.*-]{1,253}:(?:\d{1,5}|\*):[^:\s]{1,63}:[^:\s]{1,63}:(\S{6,200})$/gm;
/** A bare `key:` in YAML or an assignment: only a long random value, since `key: app` labels are everywhere. */
const BARE_KEY = /(?<![A-Za-z0-9_-])key["'`]?[ \t]*[:=][ \t]*["'`]?([A-Za-z0-9+/_=-]{20,200})/gi;
/** Credentials as a pair: "staging creds: deploy / …", "admin login: root / …", "the login is admin / …". */
const CREDENTIAL_PAIR =
  /\b(?:creds|credentials|identifiants|login|logins|user(?:name)?\/pass(?:word)?|account)\b[^\n:]{0,40}?(?::|[ \t](?:is|are))[ \t]*[^\s/]{1,64}[ \t]*\/[ \t]*([^\s,;'"`]{6,200})/gi;

function pairedSecrets(text: string, into: SecretFinding[]): void {
  for (const pattern of [COMMAND_PASSWORD, CREDENTIAL_PAIR, LOGIN_IN_PROSE, BARE_KEY, PGPASS_LINE]) {
    const strict = pattern === LOGIN_IN_PROSE || pattern === BARE_KEY;
    for (const match of text.matchAll(pattern)) {
      const value = trimEnd(match[1] ?? '', '.,;:!?)');
      if (!looksLikeSecretValue(value)) continue;
      if (strict && !isRandom(value)) continue;
      const start = match.index + match[0].length - (match[1] ?? '').length;
      into.push({ start, end: start + value.length, kind: 'password-assignment', source: 'generic' });
    }
  }
}

/**
 * A code of digits named as a secret: "the unlock PIN is 731905", "el código de la alarma es 58317".
 * Digits alone are no secret after most names (an order, an error, a room), so only after these.
 */
const NUMERIC_CODE =
  /\b(?:pin|passcode|(?:alarm|door|gate|safe|unlock|entry|vault) code|código de (?:la )?alarma|código de acceso|(?:tresor|tür|alarm|zugangs)code|code (?:de l'alarme|d'accès|pin))\b[^\n\d.!?]{0,40}?(?:[ \t](?:is|was|es|era|ist|lautet|est|è|é)|[:=])[ \t]*(\d{4,12})(?![\d.,/:-]?\d)/giu;

function numericCodes(text: string, into: SecretFinding[]): void {
  for (const match of text.matchAll(NUMERIC_CODE)) {
    const code = match[1] ?? '';
    const start = match.index + match[0].length - code.length;
    into.push({ start, end: start + code.length, kind: 'password-assignment', source: 'generic' });
  }
}

/** A column header that names a secret, in a table or a CSV header line. */
const SECRET_COLUMN = /^(?:pass(?:words?|wd|phrase)?|pwd|pw|secrets?|tokens?|api[ _-]?keys?|passwort|kennwort|mot de passe|mdp|contraseña|clave|senha|пароль|wachtwoord|hasło|şifre)$/iu;
const CELL_SEPARATORS = ['|', '\t', ','] as const;

/** A table whose header names a secret (`| user | password |`, `host,user,password`): that column's values. */
function tableSecrets(text: string, into: SecretFinding[]): void {
  let column = -1;
  let separator = '';
  let offset = 0;
  for (const line of text.split('\n')) {
    const found = CELL_SEPARATORS.find((candidate) => line.includes(candidate)) ?? '';
    const cells = found === '' ? [] : line.split(found);
    if (column !== -1 && found === separator) {
      const cell = cells[column] ?? '';
      const value = cell.trim();
      if (!/\s/.test(value) && looksLikeSecretValue(value)) {
        const start = offset + cells.slice(0, column).reduce((length, one) => length + one.length + 1, 0) + cell.indexOf(value);
        into.push({ start, end: start + value.length, kind: 'password-assignment', source: 'generic' });
      }
    } else {
      column = cells.findIndex((one) => SECRET_COLUMN.test(one.trim()));
      separator = found;
    }
    offset += line.length + 1;
  }
}

export function findPasswordAssignments(text: string): SecretFinding[] {
  const findings: SecretFinding[] = [];
  for (const match of text.matchAll(KEY_AND_CONNECTOR)) {
    VALUE.lastIndex = (match.index ?? 0) + match[0].length;
    const value = VALUE.exec(text);
    const literal = value?.[1] ?? value?.[2] ?? value?.[3] ?? value?.[4];
    if (value === null || literal === undefined || !looksLikeSecretValue(literal)) continue;
    const start = value.index + value[0].indexOf(literal);
    findings.push({ start, end: start + literal.length, kind: 'password-assignment', source: 'generic' });
  }
  const stated: SecretFinding[] = [];
  proseSecrets(text, stated);
  pairedSecrets(text, stated);
  tableSecrets(text, stated);
  numericCodes(text, stated);
  const starts = new Set(findings.map((finding) => finding.start));
  for (const finding of stated) {
    if (starts.has(finding.start)) continue;
    starts.add(finding.start);
    findings.push(finding);
  }
  return findings;
}
