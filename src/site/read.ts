import { type Dirent, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
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
  } catch (err) {
    issues.push({
      file: rel(file),
      record: null,
      field: null,
      message: `is not valid JSON: ${(err as Error).message}`,
    });
    return undefined;
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
