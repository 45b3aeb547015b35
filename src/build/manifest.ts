import { createHash } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { Site } from '../site/model.js';

/**
 * What the last build rendered each page from: a build key (code, settings, content, assets)
 * and a fingerprint per output file. Kept beside the output folder, never published.
 */
export interface Manifest {
  /** Empty when the build had no code version: then no page is reused by fingerprint. */
  key: string;
  pages: Record<string, string>;
  /** Every file of the output, so the next build knows which to delete. */
  files: string[];
  /** The sitemap's inputs, and the files it made. */
  sitemap: { key: string; files: string[] };
}

export const hash = (value: unknown) =>
  createHash('sha256')
    .update(typeof value === 'string' ? value : (JSON.stringify(value) ?? 'undefined'))
    .digest('base64url')
    .slice(0, 22);

/**
 * Fingerprints of what pages read. The same object is read by many pages (a city by each of
 * its dozen pages), so an object's hash is kept and a list is hashed from its items' hashes:
 * the model does not change during a build.
 */
export class Fingerprints {
  private readonly known = new WeakMap<object, string>();

  of(value: unknown): string {
    return Array.isArray(value) ? hash(value.map((v) => this.item(v))) : hash(this.item(value));
  }

  private item(value: unknown): unknown {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    let known = this.known.get(value);
    if (known === undefined) {
      known = hash(value);
      this.known.set(value, known);
    }
    return known;
  }
}

/** Everything a site model was loaded from: threads of one build check they loaded the same. */
export const siteDigest = (site: Site) =>
  hash([site.settings, site.national, site.cities, site.content]);

const fileFor = (outDir: string) =>
  path.join(
    path.dirname(path.resolve(outDir)),
    `.${path.basename(path.resolve(outDir))}.manifest.json`,
  );

export async function readManifest(outDir: string): Promise<Manifest | null> {
  try {
    const m = JSON.parse(await readFile(fileFor(outDir), 'utf8')) as Manifest;
    // One written by an older version, without the file list, is no use.
    return Array.isArray(m.files) && m.sitemap ? m : null;
  } catch {
    return null;
  }
}

/** Removed before a swap and written after it, so it never describes an output it did not make. */
export async function removeManifest(outDir: string): Promise<void> {
  await rm(fileFor(outDir), { force: true });
}

export async function writeManifest(outDir: string, manifest: Manifest): Promise<void> {
  await writeFile(fileFor(outDir), JSON.stringify(manifest));
}
