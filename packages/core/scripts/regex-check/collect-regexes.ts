/**
 * Every regular expression of the Guard and the archivist, read off the source with the TypeScript
 * parser, so a pattern added later is checked without a list to keep up. Regex literals are taken as
 * written; `new RegExp(…)` and `RegExp(…)` are folded from constants: string and template literals,
 * `String.raw`, `+`, `.source` and `.flags` of a known pattern, `[…].join(…)`, and identifiers bound
 * by a `const` in the same file or imported from a sibling module. A call that cannot be folded is
 * reported as unresolved, so it cannot slip past the check.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';

export interface CollectedRegex {
  readonly source: string;
  readonly flags: string;
  /** file:line where it is written. */
  readonly origin: string;
}

export interface Collection {
  readonly regexes: readonly CollectedRegex[];
  /** `RegExp(…)` calls whose arguments are not constants, by file:line. */
  readonly unresolved: readonly string[];
}

type Value = { kind: 'string'; text: string } | { kind: 'regex'; source: string; flags: string };

const SOURCE_ROOT = join(import.meta.dirname, '../../src');
export const CHECKED_FOLDERS = ['guard', 'archivist'] as const;

function filesUnder(folder: string): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const path = join(folder, entry.name);
    if (entry.isDirectory()) return filesUnder(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

export function moduleFiles(): string[] {
  return CHECKED_FOLDERS.flatMap((folder) => filesUnder(join(SOURCE_ROOT, folder)));
}

class SourceModule {
  readonly file: ts.SourceFile;
  readonly constants = new Map<string, ts.Expression>();
  readonly imports = new Map<string, { from: string; name: string }>();

  constructor(readonly path: string) {
    this.file = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
    for (const statement of this.file.statements) {
      if (ts.isVariableStatement(statement) && statement.declarationList.flags & ts.NodeFlags.Const) {
        for (const declaration of statement.declarationList.declarations) {
          if (ts.isIdentifier(declaration.name) && declaration.initializer) {
            this.constants.set(declaration.name.text, declaration.initializer);
          }
        }
      }
      if (ts.isImportDeclaration(statement) && ts.isStringLiteral(statement.moduleSpecifier)) {
        const specifier = statement.moduleSpecifier.text;
        const bindings = statement.importClause?.namedBindings;
        if (specifier.startsWith('.') && bindings && ts.isNamedImports(bindings)) {
          const from = resolve(dirname(path), specifier.replace(/\.js$/, '.ts'));
          for (const element of bindings.elements) {
            this.imports.set(element.name.text, { from, name: (element.propertyName ?? element.name).text });
          }
        }
      }
    }
  }

  where(node: ts.Node): string {
    const { line } = this.file.getLineAndCharacterOfPosition(node.getStart(this.file));
    return `${this.path.slice(SOURCE_ROOT.length + 1)}:${line + 1}`;
  }
}

class Folder {
  private readonly modules = new Map<string, SourceModule>();

  module(path: string): SourceModule {
    let found = this.modules.get(path);
    if (!found) {
      found = new SourceModule(path);
      this.modules.set(path, found);
    }
    return found;
  }

  /** The constant value of an expression, or undefined when it is not one. */
  fold(node: ts.Expression, where: SourceModule, depth = 0): Value | undefined {
    if (depth > 50) return undefined;
    const again = (inner: ts.Expression): Value | undefined => this.fold(inner, where, depth + 1);
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return { kind: 'string', text: node.text };
    if (ts.isRegularExpressionLiteral(node)) return regexLiteral(node.text);
    if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) {
      return again(node.expression);
    }
    if (ts.isTemplateExpression(node)) return this.template(node, false, where, depth);
    if (ts.isTaggedTemplateExpression(node) && node.tag.getText(where.file) === 'String.raw') {
      if (ts.isNoSubstitutionTemplateLiteral(node.template)) {
        return { kind: 'string', text: node.template.rawText ?? node.template.text };
      }
      return this.template(node.template, true, where, depth);
    }
    if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken) {
      const left = again(node.left);
      const right = again(node.right);
      if (left?.kind !== 'string' || right?.kind !== 'string') return undefined;
      return { kind: 'string', text: left.text + right.text };
    }
    if (ts.isIdentifier(node)) {
      const local = where.constants.get(node.text);
      if (local) return again(local);
      const imported = where.imports.get(node.text);
      if (!imported) return undefined;
      const other = this.module(imported.from);
      const exported = other.constants.get(imported.name);
      return exported ? this.fold(exported, other, depth + 1) : undefined;
    }
    if (ts.isPropertyAccessExpression(node)) {
      const target = again(node.expression);
      if (target?.kind !== 'regex') return undefined;
      if (node.name.text === 'source') return { kind: 'string', text: target.source };
      if (node.name.text === 'flags') return { kind: 'string', text: target.flags };
      return undefined;
    }
    if (ts.isCallExpression(node)) return this.call(node, where, depth);
    if (ts.isNewExpression(node)) return this.construct(node, where, depth);
    return undefined;
  }

  /** `new RegExp(source, flags)` folded, or undefined. */
  construct(node: ts.NewExpression | ts.CallExpression, where: SourceModule, depth = 0): Value | undefined {
    if (node.expression.getText(where.file) !== 'RegExp') return undefined;
    const [sourceArg, flagsArg] = node.arguments ?? [];
    if (!sourceArg) return undefined;
    const source = this.fold(sourceArg, where, depth + 1);
    const flags = flagsArg ? this.fold(flagsArg, where, depth + 1) : undefined;
    if (!source || (flagsArg && flags?.kind !== 'string')) return undefined;
    const flagText = flags?.kind === 'string' ? flags.text : source.kind === 'regex' ? source.flags : '';
    return { kind: 'regex', source: source.kind === 'regex' ? source.source : source.text, flags: flagText };
  }

  private call(node: ts.CallExpression, where: SourceModule, depth: number): Value | undefined {
    if (node.expression.getText(where.file) === 'RegExp') return this.construct(node, where, depth);
    const callee = node.expression;
    if (!ts.isPropertyAccessExpression(callee) || callee.name.text !== 'join') return undefined;
    const separatorArg = node.arguments[0];
    const separator = separatorArg ? this.fold(separatorArg, where, depth + 1) : { kind: 'string' as const, text: ',' };
    if (separator?.kind !== 'string') return undefined;
    const parts = this.list(callee.expression, where, depth);
    return parts ? { kind: 'string', text: parts.join(separator.text) } : undefined;
  }

  /** The strings of a constant array literal, or the keys of a constant object literal (`Object.keys(…)`). */
  private list(node: ts.Expression, where: SourceModule, depth: number): string[] | undefined {
    const bare = (expression: ts.Expression): ts.Expression => {
      let inner = expression;
      for (;;) {
        if (ts.isAsExpression(inner) || ts.isParenthesizedExpression(inner) || ts.isSatisfiesExpression(inner)) inner = inner.expression;
        else if (ts.isIdentifier(inner) && where.constants.has(inner.text)) inner = where.constants.get(inner.text) as ts.Expression;
        else return inner;
      }
    };
    const list = bare(node);
    if (ts.isArrayLiteralExpression(list)) {
      const parts: string[] = [];
      for (const element of list.elements) {
        const part = this.fold(element, where, depth + 1);
        if (part?.kind !== 'string') return undefined;
        parts.push(part.text);
      }
      return parts;
    }
    const [argument] = ts.isCallExpression(list) && list.expression.getText(where.file) === 'Object.keys' ? list.arguments : [];
    const object = argument ? bare(argument) : undefined;
    if (!object || !ts.isObjectLiteralExpression(object)) return undefined;
    const keys: string[] = [];
    for (const property of object.properties) {
      if (!ts.isPropertyAssignment(property)) return undefined;
      const name = property.name;
      if (ts.isIdentifier(name) || ts.isStringLiteral(name) || ts.isNumericLiteral(name)) keys.push(name.text);
      else return undefined;
    }
    return keys;
  }

  private template(node: ts.TemplateExpression, raw: boolean, where: SourceModule, depth: number): Value | undefined {
    const text = (literal: ts.TemplateLiteralLikeNode): string => (raw ? (literal.rawText ?? literal.text) : literal.text);
    let out = text(node.head);
    for (const span of node.templateSpans) {
      const part = this.fold(span.expression, where, depth + 1);
      if (part?.kind !== 'string') return undefined;
      out += part.text + text(span.literal);
    }
    return { kind: 'string', text: out };
  }
}

function regexLiteral(literal: string): Value {
  const end = literal.lastIndexOf('/');
  return { kind: 'regex', source: literal.slice(1, end), flags: literal.slice(end + 1) };
}

/** Every pattern written in the checked folders, and the `RegExp(…)` calls that are not constant. */
export function collectRegexes(files: readonly string[] = moduleFiles()): Collection {
  const folder = new Folder();
  const regexes: CollectedRegex[] = [];
  const unresolved: string[] = [];
  for (const path of files) {
    const module = folder.module(path);
    const visit = (node: ts.Node): void => {
      if (ts.isRegularExpressionLiteral(node)) {
        const value = regexLiteral(node.text);
        if (value.kind === 'regex') regexes.push({ source: value.source, flags: value.flags, origin: module.where(node) });
      } else if ((ts.isNewExpression(node) || ts.isCallExpression(node)) && node.expression.getText(module.file) === 'RegExp') {
        const value = folder.construct(node, module);
        if (value?.kind === 'regex') regexes.push({ source: value.source, flags: value.flags, origin: module.where(node) });
        else unresolved.push(module.where(node));
      }
      ts.forEachChild(node, visit);
    };
    visit(module.file);
  }
  return { regexes, unresolved };
}

/** The same source and flags are checked once; the first place it is written names it. */
export function unique(regexes: readonly CollectedRegex[]): CollectedRegex[] {
  const seen = new Map<string, CollectedRegex>();
  for (const regex of regexes) {
    const key = `${regex.flags}/${regex.source}`;
    if (!seen.has(key)) seen.set(key, regex);
  }
  return [...seen.values()];
}
