export * from './export-format.ts';
export * from './export-lines.ts';
export { type ExportScope } from './export-scope.ts';
export * from './import-lines.ts';
export * from './imported-id.ts';
export * from './operator-member.ts';
export * from './read-lines.ts';
