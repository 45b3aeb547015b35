import { existsSync } from 'node:fs';
import path from 'node:path';
import type { z } from 'zod';
import { relevanceSchema, Topics } from '../audit/topics.js';
import type { DataIssue } from './errors.js';
import {
  type Body,
  type Catastrophe,
  catastrophesSchema,
  familySourcesSchema,
  type Insurer,
  insurersSchema,
  type LocalFact,
  localFactsSchema,
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
  /**
   * The audit's lexicon of words about damage, claims, insurance, risk and recovery
   * (relevance.json); null when the data set has none, and then relevance is not measured.
   */
  topics: Topics | null;
  /** Local facts (local-facts.json) by city slug, in the data's order. */
  local: ReadonlyMap<string, readonly LocalFact[]>;
  /** Home insurers' claims lines (insurers.json), by name. */
  insurers: readonly Insurer[];
  /** Where the populations come from (sources.json); null when the data set does not say. */
  populationSource: Source | null;
}

/**
 * Loads provinces.json, catastrophes.json, insurers.json and sources.json; problems go to `issues`. Each may be absent
 * (a data set made before they existed): its pages then say nothing of what it would hold.
 */
export function loadFacts(
  dataDir: string,
  rel: (f: string) => string,
  /** Every city slug the data names; null when a city file could not be read (see loadCities). */
  citySlugs: ReadonlySet<string> | null,
  issues: DataIssue[],
): Facts | undefined {
  /** A data file that may be absent, parsed; `absent` when it is; undefined when it is wrong. */
  const optional = <S extends z.ZodType>(name: string, schema: S, absent: z.infer<S>) => {
    const file = path.join(dataDir, name);
    return existsSync(file)
      ? parseRecord(schema, readJson(file, rel, issues), rel(file), null, issues)
      : absent;
  };
  const provincesFile = path.join(dataDir, 'provinces.json');
  const provinces = optional('provinces.json', provincesSchema, {
    national: { complaints: [] },
    provinces: [],
  });
  if (provinces) issues.push(...twiceListed(provinces.provinces, rel(provincesFile)));

  const catastrophes = optional('catastrophes.json', catastrophesSchema, []);
  if (catastrophes && citySlugs)
    issues.push(
      ...unknownCities(catastrophes, citySlugs, rel(path.join(dataDir, 'catastrophes.json'))),
    );

  const families = optional('sources.json', familySourcesSchema.nullable(), null);
  const insurers = optional('insurers.json', insurersSchema, []);
  const relevance = optional('relevance.json', relevanceSchema.nullable(), null);
  const localFile = path.join(dataDir, 'local-facts.json');
  const local = optional('local-facts.json', localFactsSchema, {});
  for (const slug of Object.keys(local ?? {}))
    if (citySlugs && !citySlugs.has(slug))
      issues.push({
        file: rel(localFile),
        record: slug,
        field: null,
        message: `"${slug}" is not a city of the data set`,
      });

  if (
    !provinces ||
    !catastrophes ||
    families === undefined ||
    !insurers ||
    relevance === undefined ||
    !local
  )
    return undefined;
  return {
    topics: relevance ? new Topics(relevance) : null,
    local: new Map(Object.entries(local)),
    insurers: [...insurers].sort((a, b) => a.name.localeCompare(b.name)),
    populationSource: families?.population ?? null,
    provinces: new Map(provinces.provinces.map((p) => [p.code, p])),
    nationalComplaints: provinces.national.complaints,
    catastrophes: [...catastrophes].sort((a, b) => b.year - a.year),
  };
}

/** A province or territory listed twice in provinces.json. */
function twiceListed(provinces: readonly ProvinceFacts[], file: string): DataIssue[] {
  const issues: DataIssue[] = [];
  const seen = new Set<string>();
  provinces.forEach((p, i) => {
    if (seen.has(p.code))
      issues.push({
        file,
        record: p.code,
        field: `provinces.${i}.code`,
        message: `${p.code} is listed twice`,
      });
    seen.add(p.code);
  });
  return issues;
}

/** A catastrophe's city that the data set does not have. */
function unknownCities(
  catastrophes: readonly Catastrophe[],
  citySlugs: ReadonlySet<string>,
  file: string,
): DataIssue[] {
  const issues: DataIssue[] = [];
  catastrophes.forEach((c, i) => {
    c.cities.forEach((slug, k) => {
      if (!citySlugs.has(slug))
        issues.push({
          file,
          record: `${c.year} ${c.name}`,
          field: `${i}.cities.${k}`,
          message: `"${slug}" is not a city of the data set`,
        });
    });
  });
  return issues;
}
