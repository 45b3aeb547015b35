import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { displayPath } from '../site/display-path.js';
import { DataError, type DataIssue } from '../site/errors.js';
import type { Assets } from './assets.js';
import type { Inputs } from './inputs.js';
import type { Plan } from './plan.js';
import type { Staging } from './staging.js';

/** A file of the public folder, copied into the output at the same path. */
export interface PublicFile {
  /** Path under the public folder and the output, with forward slashes. */
  rel: string;
  abs: string;
  /** Size and modification time: a file whose stamp did not change is kept, not read again. */
  stamp: string;
}

/** Left out of the copy: version control and the litter of file managers. */
const SKIPPED = new Set(['.git', '.DS_Store', 'Thumbs.db', 'desktop.ini']);

/**
 * Every file under the public folder (links followed), sorted; none when there is no folder.
 * Dot files are copied too: `.well-known/` is where hosts and browsers look for some of them.
 */
export function listPublic(dir: string | null | undefined): PublicFile[] {
  if (!dir) return [];
  const root = path.resolve(dir);
  const out: PublicFile[] = [];
  const walk = (abs: string, rel: string) => {
    for (const name of readdirSync(abs).sort()) {
      if (SKIPPED.has(name)) continue;
      const file = path.join(abs, name);
      const info = statSync(file, { throwIfNoEntry: false });
      const at = rel ? `${rel}/${name}` : name;
      if (info?.isDirectory()) walk(file, at);
      else if (info?.isFile())
        out.push({ rel: at, abs: file, stamp: `${info.size}:${info.mtimeMs}` });
    }
  };
  if (statSync(root, { throwIfNoEntry: false })?.isDirectory()) walk(root, '');
  return out;
}

/** Generated files a public file of the same path takes the place of. */
const REPLACEABLE = new Set(['robots.txt', 'favicon.svg']);

/** Generated files a public file of the same path adds to: its rules follow the build's. */
const APPENDED = new Set(['_headers']);

/**
 * A public file that would take the path of a file the build writes (a page, an asset, the
 * sitemap) is a data error naming both: the owner chooses which one the site keeps.
 */
function checkPublicPaths(
  publicDir: string,
  files: readonly PublicFile[],
  generatedBy: (rel: string) => string | undefined,
): void {
  const issues: DataIssue[] = [];
  for (const f of files) {
    const what = generatedBy(f.rel);
    if (!what || REPLACEABLE.has(f.rel) || APPENDED.has(f.rel)) continue;
    issues.push({
      file: displayPath(path.join(publicDir, f.rel)),
      record: null,
      field: null,
      message: `has the same path in the output as ${what}; rename or remove one of them`,
    });
  }
  if (issues.length > 0) throw new DataError(issues);
}

/** checkPublicPaths against every file a build of `plan` writes. */
export function checkPublicPages(publicDir: string, inputs: Inputs, plan: Plan): void {
  checkPublicPaths(
    publicDir,
    inputs.publicFiles,
    generatedFiles((rel) => plan.publicPages.get(rel), inputs.assets, [
      ...plan.images.map((image) => image.file),
      ...plan.copiedImages,
    ]),
  );
}

/** What the build writes at a path of the output, named for a message; undefined for nothing. */
function generatedFiles(
  /** The path of the page whose file is at `rel`, if any. */
  pageAt: (rel: string) => string | undefined,
  assets: Assets,
  images: readonly string[],
): (rel: string) => string | undefined {
  const byFile = new Map<string, string>();
  for (const a of assets.files) byFile.set(a.file, `the asset /${a.file}`);
  for (const image of images) byFile.set(image, `the share image /${image}`);
  for (const f of ['robots.txt', '_headers']) byFile.set(f, `the generated ${f}`);
  return (rel) =>
    (pageAt(rel) === undefined ? undefined : `the page ${pageAt(rel)}`) ??
    byFile.get(rel) ??
    (/^sitemap(-\d+)?\.xml$/.test(rel) ? `the generated ${rel}` : undefined);
}

export const replacedByPublic = (rel: string, files: readonly PublicFile[]) =>
  REPLACEABLE.has(rel) && files.some((f) => f.rel === rel);

/** The owner's `public/_headers`, which the generated one takes in. */
export function ownHeaders(files: readonly PublicFile[]): string | undefined {
  const own = files.find((f) => f.rel === '_headers');
  return own && readFileSync(own.abs, 'utf8');
}

/**
 * Stages the public files: one whose size and modification time are as the last build saw them
 * is kept where it is; any other is read and staged (and written only if its bytes changed).
 * Returns the stamps for the manifest.
 */
export function stagePublic(
  staging: Staging,
  files: readonly PublicFile[],
  previous: Readonly<Record<string, string>>,
): Record<string, string> {
  const stamps: Record<string, string> = {};
  for (const f of files) {
    if (APPENDED.has(f.rel)) continue;
    stamps[f.rel] = f.stamp;
    if (previous[f.rel] === f.stamp && staging.keep(f.rel)) continue;
    staging.put(f.rel, readFileSync(f.abs));
  }
  return stamps;
}
