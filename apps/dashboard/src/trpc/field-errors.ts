import type { z } from 'zod';

/** How a field is called to people: `factKey` → "fact key", `userIds` → "user ids". */
export function fieldLabel(path: readonly PropertyKey[]): string {
  const last = [...path].reverse().find((part) => typeof part === 'string');
  if (last === undefined) return 'The value';
  const words = last
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replace(/_/g, ' ')
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

const units = (origin: string | undefined, n: number | bigint): string =>
  origin === 'string' ? `${n} character${n === 1 ? '' : 's'}` : origin === 'array' ? `${n} item${n === 1 ? '' : 's'}` : String(n);

/** One zod issue in plain words that name the field and its limit. */
export function plainIssue(issue: z.core.$ZodIssue): string {
  const field = fieldLabel(issue.path);
  switch (issue.code) {
    case 'too_big':
      return issue.origin === 'string' || issue.origin === 'array'
        ? `${field} is too long: at most ${units(issue.origin, issue.maximum)}.`
        : `${field} must be at most ${String(issue.maximum)}.`;
    case 'too_small':
      if ((issue.origin === 'string' || issue.origin === 'array') && Number(issue.minimum) <= 1) return `${field} is required.`;
      return issue.origin === 'string' || issue.origin === 'array'
        ? `${field} is too short: at least ${units(issue.origin, issue.minimum)}.`
        : `${field} must be at least ${String(issue.minimum)}.`;
    case 'invalid_format':
      if (issue.format === 'email') return `${field} must be an email address, like name@example.com.`;
      if (issue.format === 'uuid') return `${field} is not a valid id.`;
      return `${field} is not in the expected form.`;
    case 'invalid_type':
      return issue.input === undefined ? `${field} is required.` : `${field} has the wrong kind of value.`;
    case 'invalid_value':
      return `${field} must be one of: ${issue.values.map(String).join(', ')}.`;
    default:
      // Custom checks (refine) carry a message written for people.
      return issue.message.startsWith(field) ? issue.message : `${field}: ${issue.message}`;
  }
}

/** A failed input check as one message and, per field (its dotted path), its own message. */
export function describeInvalidInput(error: z.ZodError): { message: string; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.map(String).join('.');
    fields[key] ??= plainIssue(issue);
  }
  return { message: Object.values(fields).join(' '), fields };
}
