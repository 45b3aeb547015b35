import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Site } from '../site/model.js';
import { readJson } from '../site/read.js';
import { siblingName } from './commit.js';

/**
 * The city records the last build found valid, kept beside the output folder as the manifest is:
 * the digest of each (see RecordDigests) and the code that checked them. Whether a record is
 * valid depends on its tokens and the code alone, so the file holds true whatever became of the
 * output since; the next build under the same code does not check those records again (zod:
 * about 30 µs a record, 0.3-0.5 s of a one-city edit at 100x).
 */
export const validRecordsFile = (outDir: string) =>
  siblingName(path.resolve(outDir), 'valid-records.json');

interface ValidRecords {
  format: typeof FORMAT;
  code: string;
  records: string[];
}

const FORMAT = 1;

/**
 * The digests of the records the last build under `code` found valid; none without a code (a
 * build from sources) or a file of that code.
 */
export function readValidRecords(outDir: string, code: string | null): ReadonlySet<string> {
  if (!code) return new Set();
  // Read as the data is, in pieces: an unreadable or malformed file is none.
  const read = readJson(validRecordsFile(outDir), (f) => f, []);
  return isValidRecords(read) && read.code === code ? new Set(read.records) : new Set();
}

function isValidRecords(value: unknown): value is ValidRecords {
  const read = value as Partial<ValidRecords> | null | undefined;
  return (
    read?.format === FORMAT &&
    typeof read.code === 'string' &&
    Array.isArray(read.records) &&
    read.records.every((r) => typeof r === 'string')
  );
}

/**
 * Keeps the digests of the site's cities' records, found valid by this build's `code`, for the
 * next build. After the commit, and at best: the output is made by then, and a next build that
 * cannot read them checks every record, as a first build does.
 */
export function saveValidRecords(outDir: string, code: string | null, site: Site): void {
  if (!code) return;
  const records: string[] = [];
  for (const city of site.cities) {
    const digest = site.recordDigests.get(city);
    if (digest !== undefined) records.push(digest);
  }
  const file = validRecordsFile(outDir);
  // A file of that name that is not one of these is someone else's: left as it is.
  if (existsSync(file) && !isValidRecords(readJson(file, (f) => f, []))) return;
  const tmp = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(tmp, JSON.stringify({ format: FORMAT, code, records } satisfies ValidRecords));
    renameSync(tmp, file);
  } catch {
    rmSync(tmp, { force: true });
  }
}
