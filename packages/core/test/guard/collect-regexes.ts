/**
 * Every regular expression of the Guard and the archivist, collected without a list to keep up:
 * regex literals are read off the modules' source with the TypeScript parser, and patterns built at
 * run time are caught by watching the RegExp constructor while the modules load and run.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

export interface CollectedRegex {
  readonly source: string;
  readonly flags: string;
  /** Where it was found: a file for a literal, "constructed" for one built at run time. */
  readonly origin: string;
}

const SOURCE_ROOT = join(import.meta.dirname, '../../src');
export const CHECKED_FOLDERS = ['guard', 'archivist'] as const;

export function moduleFiles(): string[] {
  return CHECKED_FOLDERS.flatMap((folder) =>
    readdirSync(join(SOURCE_ROOT, folder))
      .filter((name) => name.endsWith('.ts'))
      .map((name) => join(SOURCE_ROOT, folder, name)),
  );
}

/** Regex literals in a TypeScript file, read by the compiler's parser (not by a regex). */
export function regexLiterals(file: string): CollectedRegex[] {
  const text = readFileSync(file, 'utf8');
  const sourceFile = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: CollectedRegex[] = [];
  const visit = (node: ts.Node): void => {
    if (node.kind === ts.SyntaxKind.RegularExpressionLiteral) {
      const literal = node.getText(sourceFile);
      const end = literal.lastIndexOf('/');
      found.push({ source: literal.slice(1, end), flags: literal.slice(end + 1), origin: file });
    }
    ts.forEachChild(node, visit);
  };
  visit(sourceFile);
  return found;
}

/**
 * Loads every module of the checked folders with the RegExp constructor watched, then runs
 * `exercise` (which should reach the patterns built inside functions) and restores the constructor.
 */
export async function constructedRegexes(exercise: () => Promise<void>): Promise<CollectedRegex[]> {
  const found: CollectedRegex[] = [];
  const original = globalThis.RegExp;
  globalThis.RegExp = new Proxy(original, {
    construct(target, args: unknown[]) {
      const made = Reflect.construct(target, args) as RegExp;
      found.push({ source: made.source, flags: made.flags, origin: 'constructed' });
      return made;
    },
    apply(target, _this, args: unknown[]) {
      const made = Reflect.construct(target, args) as RegExp;
      found.push({ source: made.source, flags: made.flags, origin: 'constructed' });
      return made;
    },
  });
  try {
    for (const file of moduleFiles()) await import(file);
    await exercise();
  } finally {
    globalThis.RegExp = original;
  }
  return found;
}

/** Unique patterns: the same source and flags are checked once. */
export function unique(regexes: readonly CollectedRegex[]): CollectedRegex[] {
  const seen = new Map<string, CollectedRegex>();
  for (const regex of regexes) seen.set(`${regex.flags}/${regex.source}`, seen.get(`${regex.flags}/${regex.source}`) ?? regex);
  return [...seen.values()];
}
