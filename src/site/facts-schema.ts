import * as z from 'zod';
import { checkedAfterAsOf, datedFields } from './fact-dates.js';
import { northAmericanPhone } from './phone.js';
import { PROVINCE_CODES } from './provinces.js';
import { sourceSchema } from './schema.js';

const text = z.string().trim().min(1, 'must not be empty');
const code = z.enum(PROVINCE_CODES, { error: `must be one of: ${PROVINCE_CODES.join(', ')}` });

/** What a province's assistance fact can answer: what it covers, excludes, and when to apply. */
export const ASSISTANCE_TELLS = ['covers', 'excludes', 'deadline'] as const;

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
      /**
       * The province's disaster financial assistance: what its programme covers and how to
       * apply, shown on its cities' pages and its own; `fr` for provinces with French pages.
       */
      assistance: z
        .array(
          sourcedText
            .extend({
              fr: text.optional(),
              /**
               * Which of a homeowner's questions the fact answers from its source: what the
               * programme covers, what it excludes, the deadline to apply (a city's page answers
               * all three: src/site/city-answers.ts).
               */
              tells: z.array(z.enum(ASSISTANCE_TELLS)).min(1, 'must name what it tells').optional(),
              ...datedFields,
            })
            .superRefine(checkedAfterAsOf),
        )
        .optional(),
      /**
       * The permits repairs need wherever in the province (its building or safety codes), told on
       * the pages of its cities whose own data does not say (src/site/city-answers.ts).
       */
      permits: z
        .array(
          sourcedText.extend({ fr: text.optional(), ...datedFields }).superRefine(checkedAfterAsOf),
        )
        .optional(),
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

/**
 * data/insurers.json: home insurers' claims lines, each as the insurer's own page gives it (the
 * claims-offices pages list them; a policyholder's own policy names the insurer to call).
 */
export const insurersSchema = z.array(
  z.strictObject({
    name: text,
    phone: northAmericanPhone.pipe(
      z
        .string()
        .regex(/^1-\d{3}-\d{3}-\d{4}$/, 'must be a toll-free number written 1-800-555-0100'),
    ),
    source: sourceSchema,
  }),
);

/** What a local fact helps a homeowner with. */
const LOCAL_TOPICS = ['protection', 'report', 'assistance', 'permits', 'risk', 'housing'] as const;

/**
 * data/local-facts.json: by city slug, what helps a homeowner with damage there act: the city's
 * flood-protection subsidies, where to report and get help, disaster assistance, the permits
 * repairs need, its flood and sewer-backup risk, its housing; each paraphrased from its
 * publisher's own page. `area` names a neighbourhood of the city the fact is about, `region` the
 * region whose fact it is; `fr` is the
 * French of a fact shown on French pages (required for Québec and New Brunswick cities);
 * `asOf` and `checked` say when it was true and when it was last read at its source.
 */
export const localFactsSchema = z.record(
  z.string().regex(/^[a-z0-9]+(-[a-z0-9]+)*$/, 'must be a city slug'),
  z
    .array(
      z
        .strictObject({
          topic: z.enum(LOCAL_TOPICS, { error: `must be one of: ${LOCAL_TOPICS.join(', ')}` }),
          text,
          fr: text.optional(),
          area: text.optional(),
          /**
           * The region (an upper-tier municipality: Halton, Peel, Durham) whose fact this is,
           * told on each of its cities' pages; it answers there, but only a city's own facts
           * make its page indexed (src/site/city-answers.ts).
           */
          region: text.optional(),
          source: sourceSchema,
          /** The date its source gives, or the year it tells of (see fact-dates.ts). */
          asOf: datedFields.asOf,
          /** The day it was last read at its source. */
          checked: datedFields.checked,
        })
        .superRefine(checkedAfterAsOf),
    )
    .min(1, 'must give at least one fact'),
);

type ProvincesRecord = z.infer<typeof provincesSchema>;
export type ProvinceFacts = ProvincesRecord['provinces'][number];
export type Assistance = NonNullable<ProvinceFacts['assistance']>[number];
export type ProvincePermit = NonNullable<ProvinceFacts['permits']>[number];
export type Body = z.infer<typeof bodySchema>;
export type LicenceLookup = z.infer<typeof lookupSchema>;
export type Catastrophe = z.infer<typeof catastrophesSchema>[number];
export type Insurer = z.infer<typeof insurersSchema>[number];
export type LocalFact = z.infer<typeof localFactsSchema>[string][number];

/** data/sources.json: the sources of fact families every city shares (their populations). */
export const familySourcesSchema = z.strictObject({ population: sourceSchema });
