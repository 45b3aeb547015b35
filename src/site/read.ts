import { closeSync, type Dirent, openSync, readdirSync, readSync } from 'node:fs';
import path from 'node:path';
import { StringDecoder } from 'node:string_decoder';
import { parse as parseJsonAst } from '@humanwhocodes/momoa';
import type { z } from 'zod';
import type { DataIssue } from './errors.js';
import { dataMessage } from './issue-messages.js';
import { RecordDigests } from './record-bytes.js';

/**
 * Reads one JSON file; a missing or malformed file becomes an issue, not an exception. Reads are
 * synchronous: a data set is a few dozen small files, and each asynchronous read cost several
 * trips through the thread pool.
 */
export function readJson(file: string, rel: (f: string) => string, issues: DataIssue[]) {
  const text = readText(file, rel, issues);
  return text === undefined ? undefined : parseJson(text, file, rel, issues);
}

/**
 * A JSON file that holds an array of records, and a digest of each record's tokens as the file
 * holds them, in its order (see RecordDigests): null when the value is not such an array.
 */
export function readJsonRecords(
  file: string,
  rel: (f: string) => string,
  issues: DataIssue[],
): { value: unknown; digests: string[] | null } | undefined {
  const records = new RecordDigests();
  const text = readText(file, rel, issues, (bytes) => records.write(bytes));
  const value = text === undefined ? undefined : parseJson(text, file, rel, issues);
  if (value === undefined) return undefined;
  return { value, digests: Array.isArray(value) ? records.end(value.length) : null };
}

/**
 * A file's text, read a piece at a time through one small buffer, each piece shown to `bytes`
 * as it is read. Not in one buffer the size of the file: glibc maps a large one apart from its
 * heap, and freeing it raises, for the rest of the process, the size below which it keeps freed
 * memory in its heap rather than give it back (its dynamic mmap threshold). At 100 times the
 * bundled data that threshold cost the rebuild under new code up to 50 MB of its peak (347 MiB
 * with it pinned, 392-398 without); reading Ontario's 18 MB file in pieces took back about 10.
 */
function readText(
  file: string,
  rel: (f: string) => string,
  issues: DataIssue[],
  bytes?: (piece: Buffer) => void,
): string | undefined {
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch (err) {
    issues.push({ file: rel(file), record: null, field: null, message: unreadable(err) });
    return undefined;
  }
  const decoder = new StringDecoder('utf8');
  const parts: string[] = [];
  try {
    for (;;) {
      const n = readSync(fd, PIECE, 0, PIECE.length, null);
      if (n === 0) break;
      const piece = PIECE.subarray(0, n);
      bytes?.(piece);
      parts.push(decoder.write(piece));
    }
  } catch (err) {
    issues.push({ file: rel(file), record: null, field: null, message: unreadable(err) });
    return undefined;
  } finally {
    closeSync(fd);
  }
  parts.push(decoder.end());
  return parts.join('');
}

/** Below glibc's least mmap threshold (128 KB): kept in its heap, and reused by every read. */
const PIECE = Buffer.allocUnsafeSlow(64 * 1024);

function unreadable(err: unknown): string {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' ? 'file not found' : `cannot be read (${code})`;
}

function parseJson(text: string, file: string, rel: (f: string) => string, issues: DataIssue[]) {
  try {
    return interned(JSON.parse(text) as unknown, new Map());
  } catch {
    issues.push({ file: rel(file), record: null, field: null, message: jsonSyntaxError(text) });
    return undefined;
  }
}

/**
 * The value with each repeated string made one string: JSON.parse makes every occurrence its
 * own copy, and a data set repeats many (a source's name on every fact, an area's text in each
 * of its city's copies). At 100 times the bundled data, a third of the strings loaded.
 */
function interned(value: unknown, seen: Map<string, string>): unknown {
  if (typeof value === 'string') {
    const known = seen.get(value);
    if (known !== undefined) return known;
    seen.set(value, value);
    return value;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) value[i] = interned(value[i], seen);
  } else if (value !== null && typeof value === 'object') {
    const record = value as Record<string, unknown>;
    for (const key of Object.keys(record)) record[key] = interned(record[key], seen);
  }
  return value;
}

/** momoa's token names, as the characters a person sees. */
const TOKENS: Record<string, string> = {
  LBrace: '{',
  RBrace: '}',
  LBracket: '[',
  RBracket: ']',
  Comma: ',',
  Colon: ':',
};

/**
 * Where JSON that does not parse first goes wrong, as line and column (counted from 1) and
 * what was found there: V8's own message gives a character offset at best, and in Node 20
 * sometimes not even that. momoa parses strict JSON and says where it stopped.
 */
function jsonSyntaxError(text: string): string {
  try {
    parseJsonAst(text, { mode: 'json' });
    return 'is not valid JSON';
  } catch (err) {
    const e = err as Error & { line?: number; column?: number };
    let what = e.message
      .replace(/\s*\(\d+:\d+\)$/, '')
      .replace(/ found\.?$/, '')
      .replace(/token (\w+)/, (_, t: string) => `"${TOKENS[t] ?? t}"`);
    what = what.charAt(0).toLowerCase() + what.slice(1);
    // The end of the input is where the text ends, whatever position the parser gives it.
    if (/end of input/.test(what)) {
      const lines = text.split('\n');
      return `is not valid JSON: it ends too soon, at line ${lines.length}, column ${(lines.at(-1)?.length ?? 0) + 1}`;
    }
    return `is not valid JSON at line ${e.line ?? '?'}, column ${e.column ?? '?'}: ${what}`;
  }
}

export function parseRecord<S extends z.ZodType>(
  schema: S,
  raw: unknown,
  file: string,
  record: string | null,
  issues: DataIssue[],
): z.infer<S> | undefined {
  if (raw === undefined) return undefined;
  const result = schema.safeParse(raw, { error: dataMessage });
  if (result.success) return result.data;
  for (const issue of result.error.issues) {
    // An unknown field is named as the field, not as the object that holds it.
    const keys = issue.code === 'unrecognized_keys' ? issue.keys : [];
    const field = [...issue.path, ...keys].map(String).join('.') || null;
    // Missing, whatever the schema says of a value of the wrong kind.
    const message =
      issue.code === 'invalid_type' && valueAt(raw, issue.path) === undefined
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
