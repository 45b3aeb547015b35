import { existsSync } from 'node:fs';
import path from 'node:path';
import type { DataIssue } from './errors.js';
import {
  type Body,
  type Catastrophe,
  catastrophesSchema,
  familySourcesSchema,
  type ProvinceFacts,
  provincesSchema,
} from './facts-schema.js';
import { parseRecord, readJson } from './read.js';
import type { Source } from './schema.js';

/** Sourced facts beyond the cities: who regulates claims where, and the catastrophes insured. */
export interface Facts {
  /** By province or territory code. */
  provinces: ReadonlyMap<string, ProvinceFacts>;
  /** Complaint services open to policyholders in every province. */
  nationalComplaints: readonly Body[];
  /** Newest first. */
  catastrophes: readonly Catastrophe[];
  /** Where the populations come from (sources.json); null when the data set does not say. */
  populationSource: Source | null;
}

/**
 * Loads provinces.json and catastrophes.json; problems go to `issues`. Either may be absent
 * (a data set made before they existed): its pages then say nothing of what it would hold.
 */
export function loadFacts(
  dataDir: string,
  rel: (f: string) => string,
  citySlugs: ReadonlySet<string>,
  issues: DataIssue[],
): Facts | undefined {
  const provincesFile = path.join(dataDir, 'provinces.json');
  const provinces = existsSync(provincesFile)
    ? parseRecord(
        provincesSchema,
        readJson(provincesFile, rel, issues),
        rel(provincesFile),
        null,
        issues,
      )
    : { national: { complaints: [] }, provinces: [] };
  if (provinces) {
    const seen = new Set<string>();
    provinces.provinces.forEach((p, i) => {
      if (seen.has(p.code))
        issues.push({
          file: rel(provincesFile),
          record: p.code,
          field: `provinces.${i}.code`,
          message: `${p.code} is listed twice`,
        });
      seen.add(p.code);
    });
  }

  const catastrophesFile = path.join(dataDir, 'catastrophes.json');
  const shown = rel(catastrophesFile);
  const catastrophes = existsSync(catastrophesFile)
    ? parseRecord(catastrophesSchema, readJson(catastrophesFile, rel, issues), shown, null, issues)
    : [];
  catastrophes?.forEach((c, i) => {
    c.cities.forEach((slug, k) => {
      if (!citySlugs.has(slug))
        issues.push({
          file: shown,
          record: `${c.year} ${c.name}`,
          field: `${i}.cities.${k}`,
          message: `"${slug}" is not a city of the data set`,
        });
    });
  });

  const sourcesFile = path.join(dataDir, 'sources.json');
  const families = existsSync(sourcesFile)
    ? parseRecord(
        familySourcesSchema,
        readJson(sourcesFile, rel, issues),
        rel(sourcesFile),
        null,
        issues,
      )
    : { population: null };

  if (!provinces || !catastrophes || !families) return undefined;
  return {
    populationSource: families.population,
    provinces: new Map(provinces.provinces.map((p) => [p.code, p])),
    nationalComplaints: provinces.national.complaints,
    catastrophes: [...catastrophes].sort((a, b) => b.year - a.year),
  };
}
