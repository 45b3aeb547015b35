import type { z } from 'zod';

/**
 * What a data file's reader is told when a value breaks a rule the schema gives no words of its
 * own: our wording instead of zod's ("Invalid input: expected number, received string"). Given to
 * each parse of the data (see parseRecord); a message the schema sets itself takes precedence.
 */
export function dataMessage(issue: z.core.$ZodRawIssue): string {
  switch (issue.code) {
    case 'invalid_type':
      return issue.input === undefined
        ? 'is required'
        : `must be ${KINDS[issue.expected] ?? issue.expected}, not ${described(issue.input)}`;
    case 'too_small':
      return tooSmall(issue.origin, Number(issue.minimum), issue.inclusive !== false);
    case 'too_big':
      return tooBig(issue.origin, Number(issue.maximum), issue.inclusive !== false);
    case 'invalid_value':
      return issue.values.length === 1
        ? `must be ${JSON.stringify(issue.values[0])}, not ${described(issue.input)}`
        : `must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'invalid_format':
      return FORMATS[issue.format] ?? `is not in the form this field takes (${issue.format})`;
    case 'invalid_union':
      return `is not in any of the forms this field takes (${described(issue.input)})`;
    case 'unrecognized_keys':
      return 'is not a known field';
    default:
      return 'is not a valid value';
  }
}

/** A value as the reader typed it, short. */
function described(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  switch (typeof value) {
    case 'string':
      return `text (${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)})`;
    case 'number':
      return `the number ${value}`;
    case 'boolean':
      return String(value);
    case 'object':
      return 'an object';
    default:
      return typeof value;
  }
}

const KINDS: Record<string, string> = {
  string: 'text in quotes',
  number: 'a number',
  int: 'a whole number',
  boolean: 'true or false',
  object: 'an object ({ … })',
  array: 'a list ([ … ])',
  null: 'null',
};

const FORMATS: Record<string, string> = {
  url: 'must be an absolute URL',
  email: 'must be an e-mail address',
  regex: 'is not in the form this field takes',
  date: 'must be a date (YYYY-MM-DD)',
};

function tooSmall(origin: string, n: number, inclusive: boolean): string {
  if (origin === 'string')
    return n <= 1 ? 'must not be empty' : `must be at least ${n} characters long`;
  if (origin === 'array' || origin === 'set')
    return n <= 1 ? 'must list at least one' : `must list at least ${n}`;
  return inclusive ? `must be at least ${n}` : `must be greater than ${n}`;
}

function tooBig(origin: string, n: number, inclusive: boolean): string {
  if (origin === 'string') return `must be at most ${n} characters long`;
  if (origin === 'array' || origin === 'set') return `must list at most ${n}`;
  return inclusive ? `must be at most ${n}` : `must be less than ${n}`;
}
