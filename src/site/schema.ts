import * as z from 'zod';
import { PROVINCE_CODES, PROVINCE_NAMES } from './provinces.js';
import { NATIONAL } from './segments.js';

const text = z.string().trim().min(1, 'must not be empty');

/** ISO 8601 date, only as precise as the source: 1834-03-06, 1905-09 or 1905. */
const isoDate = z
  .string()
  .regex(
    /^\d{4}(-(0[1-9]|1[0-2])(-(0[1-9]|[12]\d|3[01]))?)?$/,
    'must be an ISO date (YYYY, YYYY-MM or YYYY-MM-DD)',
  )
  .refine(
    (s) =>
      s.length < 10 ||
      (!Number.isNaN(Date.parse(`${s}T00:00:00Z`)) &&
        new Date(`${s}T00:00:00Z`).toISOString().startsWith(s)),
    'is not a real calendar date',
  );

/** A rough box around Canada: catches swapped or unsigned coordinates. */
export const coordinates = z.object({
  lat: z.number().min(41.6, 'is south of Canada').max(83.2, 'is north of Canada'),
  lng: z.number().min(-141.1, 'is west of Canada').max(-52.6, 'is east of Canada'),
});

/** Where a fact can be checked: who published it, and the page. */
export const sourceSchema = z.strictObject({
  publisher: text,
  url: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
});

/**
 * A neighbourhood, district or borough: its name (checked against the city's `sources.areas`),
 * its name with a page of its own that names it, or that with a description of its own which
 * the page supports. Only an area with a description has a page of its own in search results;
 * the others point search engines at their city's page.
 */
export const areaSchema = z.union(
  [
    text,
    z.strictObject({
      name: text,
      description: text.optional(),
      source: sourceSchema,
    }),
  ],
  { error: 'must be a name, or an object with name, source and (optionally) description' },
);

export const citySchema = z.strictObject({
  id: text,
  name: text,
  slug: text,
  province: z.enum(PROVINCE_NAMES, { error: `must be one of: ${PROVINCE_NAMES.join(', ')}` }),
  provinceCode: z.enum(PROVINCE_CODES, { error: `must be one of: ${PROVINCE_CODES.join(', ')}` }),
  population: z.number().int('must be a whole number').positive('must be greater than 0'),
  coordinates,
  incorporationDate: isoDate,
  description: text,
  /** Where each statement of the description can be checked. */
  descriptionSources: z.array(sourceSchema).min(1).max(3).optional(),
  // None is allowed: a city whose neighbourhoods no source names lists none rather than guesses.
  areas: z.array(areaSchema),
  /** Where the coordinates, the incorporation date and the areas' names can be checked. */
  sources: z
    .strictObject({
      coordinates: sourceSchema.optional(),
      incorporationDate: sourceSchema.optional(),
      areas: sourceSchema.optional(),
    })
    .optional(),
});

export const nationalSchema = z.strictObject({
  id: text,
  name: text,
  slug: z.literal(NATIONAL, { error: `must be "${NATIONAL}"` }),
  population: z.number().int('must be a whole number').positive('must be greater than 0'),
  coordinates,
  description: text,
  descriptionSources: z.array(sourceSchema).min(1).max(3).optional(),
  areas: z.array(text),
});

export const siteSettingsSchema = z.strictObject({
  siteName: text,
  baseUrl: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
  phone: text,
  email: z.email('must be an e-mail address'),
  privacyEmail: z.email('must be an e-mail address'),
  officeHours: text,
  emergencyHours: text,
  /** A path on the site (`/api/lead`), or the endpoint's own URL when it runs elsewhere. */
  leadEndpoint: z
    .string()
    .regex(
      /^(https?:\/\/[A-Za-z0-9.-]+(:\d+)?)?\/[A-Za-z0-9/_-]*$/,
      'must be a path starting with / or an http(s) URL such as https://leads.example.com/api/lead',
    ),
  analyticsId: z
    .string()
    .regex(/^G-[A-Z0-9]{4,16}$/, 'must be a GA4 measurement id such as G-ABC123XYZ')
    .optional(),
  /** Cloudflare Turnstile's site key (public), usually from TURNSTILE_SITE_KEY at build. */
  turnstileSiteKey: z
    .string()
    .regex(/^[0-9]x[A-Za-z0-9_-]{8,64}$/, 'must be a Turnstile site key such as 0x4AAAAAAA...')
    .optional(),
  /**
   * Who the business is, so a homeowner can check it: its legal name, street address, and its
   * licence or registration in each province where it operates. Shown where set; `generate`
   * says what is missing.
   */
  business: z
    .strictObject({
      legalName: text.optional(),
      address: z
        .strictObject({
          street: text,
          city: text,
          province: z.enum(PROVINCE_CODES, {
            error: `must be one of: ${PROVINCE_CODES.join(', ')}`,
          }),
          postalCode: z
            .string()
            .regex(/^[A-Z]\d[A-Z] ?\d[A-Z]\d$/, 'must be a Canadian postal code such as M5V 2T6'),
        })
        .optional(),
      licences: z
        .array(
          z.strictObject({
            province: z.enum(PROVINCE_CODES, {
              error: `must be one of: ${PROVINCE_CODES.join(', ')}`,
            }),
            /** The body that issued it, as it names itself. */
            issuedBy: text,
            number: text,
          }),
        )
        .optional(),
    })
    .optional(),
  /** Settings that still hold the bundled sample values: `generate` lists them until replaced. */
  sample: z.array(z.enum(['siteName', 'baseUrl', 'email', 'privacyEmail', 'phone'])).optional(),
});

export type CityRecord = z.infer<typeof citySchema>;
export type AreaRecord = z.infer<typeof areaSchema>;
export type Source = z.infer<typeof sourceSchema>;
export type NationalRecord = z.infer<typeof nationalSchema>;
export type SiteSettings = z.infer<typeof siteSettingsSchema>;
export type Business = NonNullable<SiteSettings['business']>;

/**
 * A city record as citySchema makes it of one it accepts, made without checking it: the record
 * of a city file is made into its city this way, checked by zod or not (see LoadOptions.valid),
 * so that a record checked in an earlier build makes the same city. What the schema changes of
 * a valid record: `text` trims; z.url trims and drops tabs and line breaks. Objects are made with
 * their keys in the schema's order, as zod makes them (tests/valid-records.test.ts compares the two).
 */
export function cityRecordOf(raw: CityRecord): CityRecord {
  const { descriptionSources, sources } = raw;
  return {
    id: raw.id.trim(),
    name: raw.name.trim(),
    slug: raw.slug.trim(),
    province: raw.province,
    provinceCode: raw.provinceCode,
    population: raw.population,
    coordinates: { lat: raw.coordinates.lat, lng: raw.coordinates.lng },
    incorporationDate: raw.incorporationDate,
    description: raw.description.trim(),
    ...(descriptionSources && { descriptionSources: descriptionSources.map(sourceOf) }),
    areas: raw.areas.map(areaOf),
    ...(sources && {
      sources: {
        ...(sources.coordinates && { coordinates: sourceOf(sources.coordinates) }),
        ...(sources.incorporationDate && {
          incorporationDate: sourceOf(sources.incorporationDate),
        }),
        ...(sources.areas && { areas: sourceOf(sources.areas) }),
      },
    }),
  };
}

const sourceOf = (source: Source): Source => ({
  publisher: source.publisher.trim(),
  url: source.url.trim().replace(/[\t\n\r]/g, ''),
});

const areaOf = (area: AreaRecord): AreaRecord =>
  typeof area === 'string'
    ? area.trim()
    : {
        name: area.name.trim(),
        ...(area.description !== undefined && { description: area.description.trim() }),
        source: sourceOf(area.source),
      };
