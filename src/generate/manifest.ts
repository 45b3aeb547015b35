import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { hash } from '../hash.js';
import type { Site } from '../site/model.js';

/**
 * What the last build rendered each page from: a build key (code, settings, content, assets)
 * and a fingerprint per output file. Kept beside the output folder, never published.
 */
export interface Manifest {
  /** Empty when the build had no code version: then no page is reused by fingerprint. */
  key: string;
  pages: Record<string, string>;
  /** Every file of the output and its size, so the next build knows what to keep and delete. */
  files: Record<string, number>;
  /** The sitemap's inputs, and the files it made. */
  sitemap: { key: string; files: string[] };
  /** The public folder's files and their size and modification time when last copied. */
  public?: Record<string, string>;
  /** Every city's nearby cities, and what they were measured from (see restoreNearby). */
  nearby?: { key: string; lists: Record<string, string[]> };
  /** The day each indexable page's content last changed, by path (see pageDates). */
  modified?: Record<string, string>;
}

export { hash } from '../hash.js';

/**
 * Fingerprints of what pages read. Most of it is shared (a city is read by each of its dozen
 * pages, a list of nearby cities by each of its areas): an object or list met again keeps its
 * hash, and a page reading several things is fingerprinted by their hashes joined. The model
 * does not change during a build.
 */
/** Values hashed by Fingerprints since the process started: tests check it grows linearly. */
export const fingerprinted = { values: 0 };

export class Fingerprints {
  private readonly known = new WeakMap<object, string>();
  private readonly plain = new Map<string, string>();

  of(value: unknown): string {
    return Array.isArray(value) ? value.map((v) => this.item(v)).join('.') : this.item(value);
  }

  private item(value: unknown): string {
    if (typeof value !== 'object' || value === null) {
      const json = JSON.stringify(value) ?? 'undefined';
      let known = this.plain.get(json);
      if (known === undefined) {
        known = hash(json);
        fingerprinted.values++;
        this.plain.set(json, known);
      }
      return known;
    }
    let known = this.known.get(value);
    if (known === undefined) {
      known = hash(value);
      fingerprinted.values++;
      this.known.set(value, known);
    }
    return known;
  }
}

/** Everything a site model was loaded from: threads of one build check they loaded the same. */
export const siteDigest = (site: Site) =>
  hash([
    site.settings,
    site.national,
    site.cities,
    site.content,
    [...site.facts.provinces.values()],
    site.facts.nationalComplaints,
    site.facts.catastrophes,
    site.facts.populationSource,
  ]);

export const manifestFile = (outDir: string) =>
  path.join(
    path.dirname(path.resolve(outDir)),
    `.${path.basename(path.resolve(outDir))}.manifest.json`,
  );

// Synchronous, as the rest of the build's file calls: fs/promises's first call starts a thread
// pool that an incremental build has no use for.
export function readManifest(outDir: string): Manifest | null {
  try {
    const m = JSON.parse(readFileSync(manifestFile(outDir), 'utf8')) as Manifest;
    // One written by an older version, without the files' sizes, is no use.
    return m.files && typeof m.files === 'object' && !Array.isArray(m.files) && m.sitemap
      ? m
      : null;
  } catch {
    return null;
  }
}

/**
 * Replaced whole (written aside and renamed), never removed: it is also the record of which files
 * in the output folder the build wrote, the only ones a later build may replace or delete.
 */
export function writeManifest(outDir: string, manifest: Manifest): void {
  const file = manifestFile(outDir);
  const tmp = `${file}.${process.pid}.tmp`;
  writeFileSync(tmp, JSON.stringify(manifest));
  renameSync(tmp, file);
}

/** What a manifest says while a commit is under way: which files are ours, and nothing to reuse. */
export const ownershipOnly = (files: Record<string, number>): Manifest => ({
  key: '',
  pages: {},
  files,
  sitemap: { key: '', files: [] },
});
