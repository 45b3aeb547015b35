import * as z from 'zod';
import { PROVINCE_CODES } from './provinces.js';
import { sourceSchema } from './schema.js';

const text = z.string().trim().min(1, 'must not be empty');
const code = z.enum(PROVINCE_CODES, { error: `must be one of: ${PROVINCE_CODES.join(', ')}` });

/** A sentence or two shown on a page, and where a reader can check it. */
const sourcedText = z.strictObject({ text, source: sourceSchema });

/** A body a policyholder can turn to, what it does, and the source that says so. */
const bodySchema = z.strictObject({
  name: text,
  url: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }).nullable(),
  text,
  source: sourceSchema,
});

/**
 * data/provinces.json: per province and territory, who licenses adjusters, what else the
 * regulator's own pages say that a policyholder should know, and where to complain; and the
 * national complaint services.
 */
/**
 * Where a policyholder can check an adjuster's licence themselves: the regulator's public
 * search or register, or the page of the regulator that leads to it and says so.
 */
const lookupSchema = z.strictObject({
  url: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
  text,
  source: sourceSchema,
});

export const provincesSchema = z.strictObject({
  national: z.strictObject({ complaints: z.array(bodySchema) }),
  provinces: z.array(
    z.strictObject({
      code,
      regulator: bodySchema.extend({ lookup: lookupSchema.optional() }),
      facts: z.array(sourcedText),
      complaints: z.array(bodySchema),
    }),
  ),
});

/**
 * data/catastrophes.json: insured catastrophes with their insured damage as the Insurance Bureau
 * of Canada or CatIQ published it, the provinces they struck and the data set's cities among
 * the places the source names.
 */
export const catastrophesSchema = z.array(
  z.strictObject({
    name: text,
    year: z.number().int('must be a whole number').min(1900).max(2100),
    kind: z.enum(['wildfire', 'flood', 'hail', 'tornado', 'windstorm', 'ice storm', 'hurricane']),
    provinces: z.array(code).min(1, 'must name at least one province or territory'),
    /** Slugs of cities in the data set. */
    cities: z.array(text),
    insuredDamage: text,
    /** Whose estimate, and which (initial, six-month, ...). */
    estimate: text,
    source: sourceSchema,
  }),
);

export type ProvincesRecord = z.infer<typeof provincesSchema>;
export type ProvinceFacts = ProvincesRecord['provinces'][number];
export type Body = z.infer<typeof bodySchema>;
export type LicenceLookup = z.infer<typeof lookupSchema>;
export type Catastrophe = z.infer<typeof catastrophesSchema>[number];

/** data/sources.json: the sources of fact families every city shares (their populations). */
export const familySourcesSchema = z.strictObject({ population: sourceSchema });
