import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
// The ES module build: the UMD one that "main" names loads its parts with a require() no bundler follows.
import {
  type ParseError,
  parse as parseJsonc,
  printParseErrorCode,
} from 'jsonc-parser/lib/esm/main.js';
import type { z } from 'zod';
import type { DataIssue } from './errors.js';

/**
 * Reads one JSON file; a missing or malformed file becomes an issue, not an exception. Reads are
 * synchronous: a data set is a few dozen small files, and each asynchronous read cost several
 * trips through the thread pool.
 */
export function readJson(file: string, rel: (f: string) => string, issues: DataIssue[]) {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    issues.push({
      file: rel(file),
      record: null,
      field: null,
      message: code === 'ENOENT' ? 'file not found' : `cannot be read (${code})`,
    });
    return undefined;
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    issues.push({ file: rel(file), record: null, field: null, message: jsonSyntaxError(text) });
    return undefined;
  }
}

const JSON_ERRORS: Partial<Record<string, string>> = {
  InvalidSymbol: 'an unexpected character',
  InvalidNumberFormat: 'a number written wrongly',
  PropertyNameExpected: 'a property name in double quotes was expected',
  ValueExpected: 'a value was expected',
  ColonExpected: 'a colon was expected',
  CommaExpected: 'a comma was expected',
  CloseBraceExpected: 'a closing } was expected',
  CloseBracketExpected: 'a closing ] was expected',
  EndOfFileExpected: 'nothing more was expected',
  InvalidCommentToken: 'JSON has no comments',
  UnexpectedEndOfComment: 'a comment is not closed',
  UnexpectedEndOfString: 'a string is not closed',
  UnexpectedEndOfNumber: 'a number is cut short',
  InvalidUnicode: 'a \\u escape is not four hex digits',
  InvalidEscapeCharacter: 'an unknown escape after \\',
  InvalidCharacter: 'a line break or control character inside a string',
};

/**
 * Where JSON that does not parse first goes wrong, as line and column (counted from 1) and what
 * was expected there: V8's own message gives a character offset at best. jsonc-parser, in its
 * strict mode (no comments, no trailing commas), finds the first error the same as JSON.parse.
 */
function jsonSyntaxError(text: string): string {
  const errors: ParseError[] = [];
  parseJsonc(text, errors, { allowTrailingComma: false, disallowComments: true });
  const first = errors[0];
  if (!first) return 'is not valid JSON';
  const before = text.slice(0, first.offset);
  const line = before.split('\n').length;
  const column = first.offset - before.lastIndexOf('\n');
  const what = JSON_ERRORS[printParseErrorCode(first.error)] ?? printParseErrorCode(first.error);
  return `is not valid JSON at line ${line}, column ${column}: ${what}`;
}

export function parseRecord<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  file: string,
  record: string | null,
  issues: DataIssue[],
): z.infer<S> | undefined {
  if (raw === undefined) return undefined;
  const result = schema.safeParse(raw);
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const field = [...issue.path, ...keys].map(String).join('.') || null;
    const message =
      issue.code === 'unrecognized_keys'
        ? 'is not a known field'
        : issue.code === 'invalid_type' && valueAt(raw, issue.path) === undefined
          ? 'is required'
          : issue.message;
    issues.push({ file, record, field, message });
  }
  return undefined;
}

function valueAt(raw: unknown, at: readonly PropertyKey[]): unknown {
  let v = raw;
  for (const key of at)
    v = isObject(v) || Array.isArray(v) ? (v as Record<PropertyKey, unknown>)[key] : undefined;
  return v;
}

export function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The files of one folder (not its subfolders) whose names end in `ext`, sorted; none if absent. */
export function filesIn(dir: string, ext: string): string[] {
  let entries: Dirent[];
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    entries = [];
  }
  return entries
    .filter(
      (e) => (e.isFile() || e.isSymbolicLink()) && e.name.endsWith(ext) && !e.name.startsWith('.'),
    )
    .map((e) => path.join(dir, e.name))
    .sort();
}
