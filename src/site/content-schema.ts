import * as z from 'zod';
import { isoFromWritten } from './format.js';
import { CLAIM_TYPES } from './segments.js';

const text = z.string().trim().min(1, 'must not be empty');
/**
 * A city's question may say what holds in Québec instead (`quebecAnswer`): Québec's pages show
 * it where the answer would quote the rest of Canada's terms (see `quebecSchema`).
 */
const qa = z.strictObject({ question: text, answer: text, quebecAnswer: text.optional() });
const step = z.strictObject({
  title: text,
  description: text,
  details: z.array(text).min(1),
  /** What Québec's pages say instead, where this step quotes the rest of Canada's terms. */
  quebec: z
    .strictObject({ description: text.optional(), details: z.array(text).min(1).optional() })
    .optional(),
});
/**
 * Marks what a site owner must replace before publishing (sample testimonials and figures):
 * `generate` lists what is still sample, and sample testimonials publish no rating markup.
 */
const sample = z.literal(true, { error: 'must be true, or left out' }).optional();

const titled = z.strictObject({ title: text, description: text, sample });
const claimTypeIds = CLAIM_TYPES.map((c) => c.type) as [string, ...string[]];
const segments = CLAIM_TYPES.map((c) => c.segment) as [string, ...string[]];

export const testimonialsSchema = z
  .array(
    z
      .strictObject({
        name: text,
        city: text,
        rating: z.literal(5, { error: 'must be 5' }),
        insurerOffer: z.number().int('must be a whole number').positive('must be greater than 0'),
        finalSettlement: z
          .number()
          .int('must be a whole number')
          .positive('must be greater than 0'),
        text,
        type: z.enum(['Water Damage', 'Fire Damage', 'Storm Damage']),
        image: text.optional(),
        sample,
      })
      .refine((t) => t.finalSettlement > t.insurerOffer, {
        path: ['finalSettlement'],
        message: 'must be more than insurerOffer',
      }),
  )
  // Six as the bundled samples are; fewer (none) while a firm gathers its clients' own words.
  .max(6, 'must hold at most six testimonials');

export const faqSchema = z.strictObject({
  groups: z
    .array(
      z.strictObject({
        id: z.enum(['general', 'process', 'residential', 'commercial', 'specialized']),
        title: text,
        items: z.array(qa).min(1),
      }),
    )
    .length(5, 'must hold the five groups'),
});

export const cityFaqSchema = z.array(qa).length(4, 'must hold exactly four items');

export const servicesSchema = z.strictObject({
  types: z
    .array(
      z.strictObject({
        type: z.enum(claimTypeIds),
        title: text,
        description: text,
        features: z.array(text).min(1),
        commonCauses: z.array(text).min(1),
        coverageItems: z.array(text).min(1),
        faqs: z.array(qa).min(1),
      }),
    )
    .length(6, 'must hold the six claim types'),
  cards: z
    .array(
      z.strictObject({
        title: text,
        description: text,
        segment: z.enum(segments),
        features: z.array(text).length(4, 'must list four features'),
      }),
    )
    .length(6, 'must hold six cards'),
});

export const processSchema = z.strictObject({
  howItWorks: z.array(step).length(3, 'must hold three steps'),
  claimProcess: z.array(step).length(3, 'must hold three steps'),
  aboutProcess: z.array(step).min(3),
});

export const aboutSchema = z.strictObject({
  serviceTypes: z.array(titled).length(6, 'must hold six service types'),
  reasons: z.array(titled).min(1),
  badges: z.array(titled).max(3, 'must hold at most three badges'),
  /**
   * The About page's figures. A data set made before they were data gets the figures the page
   * used to show, marked as the samples they are.
   */
  stats: z
    .array(z.strictObject({ value: text, label: text, sample }))
    .max(3, 'must hold at most three figures')
    .default([
      { value: '1000+', label: 'Satisfied Clients', sample: true },
      { value: '95%', label: 'Success Rate', sample: true },
      { value: '24/7', label: 'Emergency Response' },
    ]),
});

/**
 * content/quebec.json: how Québec's pages speak of the adjuster and the fee. There, the adjuster
 * a policyholder hires is a claims adjuster certified by the Autorité des marchés financiers, and
 * the fee is set in a written contract, a percentage of the indemnity or an hourly rate (see the
 * QC entry of provinces.json and its sources). `{city}` is the page's place. A data set made
 * before this file gets the wording the pages used before it.
 */
export const quebecSchema = z.strictObject({
  lead: text,
  feePromise: text,
  cta: text,
  /** The Services page's lead. */
  servicesLead: text.default(
    'Whatever damaged your home or business, a claims adjuster certified by the Autorité des marchés financiers can take the claim off your hands, from the first inspection to the final cheque. The fee is set in a written contract: a percentage of the indemnity or an hourly rate.',
  ),
  /** The line under the claim form's buttons. */
  formNote: text.default('Free and confidential. {responsePromise}'),
  /** Search snippets of a city's pages that elsewhere promise the fee; `{city}`: "Montreal, QC". */
  descriptions: z
    .strictObject({
      city: text,
      area: text,
      topAdjusters: text,
      freeConsultation: text,
    })
    .default({
      city: 'Property damage in {city}? A claims adjuster certified by the AMF reviews your claim for free and deals with your insurer for you.',
      area: 'Claims adjusters certified by the AMF serving {city}. A free review of your claim; the fee is set in a written contract.',
      topAdjusters:
        "How to check a claims adjuster's AMF certificate in {city}, what to ask before you sign, and how the written contract sets the fee.",
      freeConsultation:
        "Book a free insurance claim assessment in {city}. A certified claims adjuster's fee is set in a written contract: a percentage of the indemnity or an hourly rate.",
    }),
});

export const QUEBEC_DEFAULT: z.infer<typeof quebecSchema> = quebecSchema.parse({
  lead: 'Property damage in {city}? Tell us about your claim in three short steps. In Quebec, the adjuster who works for you rather than for your insurer is a claims adjuster certified by the Autorité des marchés financiers: one will review your claim for free.',
  feePromise: 'Fee set in a written contract: a percentage of the indemnity or an hourly rate',
  cta: "Talk to a certified claims adjuster who works for policyholders in {city}. Quebec's rules put the fee in a written contract: a percentage of the indemnity or an hourly rate, as you choose.",
});

/** The rest of Canada's fee terms, in English and in French, which must not reach Québec's pages. */
export const CANADA_FEE_TERMS =
  /5-15%|only on success|no upfront fees|5 à 15\s?%|en cas de succès|frais initiaux/i;

/** Front matter of a Markdown page (privacy, terms). */
export const legalPageSchema = z.strictObject({
  title: text,
  updated: text.refine(
    (t) => isoFromWritten(t) !== null,
    'must be a date written as "14 March 2024", "March 14, 2024" or "14 mars 2024"',
  ),
});

/** Front matter of a blog post. */
export const postSchema = z.strictObject({
  title: text,
  description: text.max(160, 'must be at most 160 characters'),
  date: z.iso.date('must be a date (YYYY-MM-DD)'),
  author: text,
});

export type Testimonial = z.infer<typeof testimonialsSchema>[number];
export type FaqContent = z.infer<typeof faqSchema>;
export type QA = z.infer<typeof qa>;
export type QuebecContent = z.infer<typeof quebecSchema>;
export type Step = z.infer<typeof step>;
export type ServicesContent = z.infer<typeof servicesSchema>;
export type ServiceType = ServicesContent['types'][number];
export type ProcessContent = z.infer<typeof processSchema>;
export type AboutContent = z.infer<typeof aboutSchema>;
