import { hash } from '../hash.js';
import type { Site } from '../site/model.js';

/** Values hashed by Fingerprints since the process started: tests check it grows linearly. */
export const fingerprinted = { values: 0 };

/**
 * Fingerprints of what pages read. Most of it is shared (a city is read by each of its dozen
 * pages, a list of nearby cities by each of its areas): an object or list met again keeps its
 * hash, and a page reading several things is fingerprinted by their hashes joined. The model
 * does not change during a build.
 */
export class Fingerprints {
  private readonly known = new WeakMap<object, string>();
  private readonly plain = new Map<string, string>();

  /**
   * `given`: digests that already stand for objects (a city's record's, see
   * Site.recordDigests), taken rather than the object hashed.
   */
  constructor(private readonly given?: WeakMap<object, string>) {}

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
    let known = this.given?.get(value) ?? this.known.get(value);
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
    site.logo,
    site.national,
    site.cities,
    site.content,
    [...site.facts.provinces.values()],
    site.facts.nationalComplaints,
    site.facts.catastrophes,
    site.facts.populationSource,
    site.facts.insurers,
  ]);
