import * as z from 'zod';
import { LOGO_PREFIX } from './logo.js';
import { mirrorProblem } from './mirrors.js';
import { northAmericanPhone } from './phone.js';
import { PROVINCE_CODES, PROVINCE_NAMES } from './provinces.js';
import { NATIONAL } from './segments.js';
import { sourceFormProblem } from './source-form.js';
import { FONT_CHOICES, parseHex } from './theme.js';

const text = z.string().trim().min(1, 'must not be empty');

/** The ad click ids a visit may carry (src/lead/attribution.ts's CLICK_IDS: site may not import lead). */
const CLICK_ID_NAMES = ['gclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid'] as const;

/** ISO 8601 date, only as precise as the source: 1834-03-06, 1905-09 or 1905. */
export const isoDate = z
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
const coordinates = z.object({
  lat: z.number().min(41.6, 'is south of Canada').max(83.2, 'is north of Canada'),
  lng: z.number().min(-141.1, 'is west of Canada').max(-52.6, 'is east of Canada'),
});

/** Where a fact can be checked: who published it, and the page at that publisher (never a mirror). */
export const sourceSchema = z
  .strictObject({
    publisher: text,
    url: z.url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' }),
  })
  .superRefine((source, ctx) => {
    const problem = mirrorProblem(source) ?? sourceFormProblem(source);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['url'] });
  });

/**
 * A neighbourhood, district or borough: its name (checked against the city's `sources.areas`),
 * its name with a page of its own that names it, or that with a description of its own which
 * the page supports. Only an area with a description has a page of its own in search results;
 * the others point search engines at their city's page.
 */
const areaSchema = z.union(
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

const postalCode = z
  .string()
  .regex(/^[A-Z]\d[A-Z] ?\d[A-Z]\d$/, 'must be a Canadian postal code such as M5V 2T6');

/** A licence or certificate to practise, as the body that issued it names it. */
const licenceSchema = z.strictObject({
  province: z.enum(PROVINCE_CODES, {
    error: `must be one of: ${PROVINCE_CODES.join(', ')}`,
  }),
  /** The body that issued it, as it names itself. */
  issuedBy: text,
  number: text,
});

/** A file the site serves from public/, named by its path there. */
const publicPath = z
  .string()
  .regex(
    /^\/(?!.*\.\.)[A-Za-z0-9._/-]+\.(jpe?g|png|webp|avif|gif|svg)$/,
    'must be the path of an image under public/, such as /images/adjuster.jpg',
  );

/**
 * Where the site is served: an origin, or an origin and the folder it is served from ending in
 * "/" (a GitHub Pages project site). Every canonical URL and sitemap entry starts with it, and
 * every link with its folder, so nothing else may follow: no file name, query or fragment.
 */
const baseUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .superRefine((value, ctx) => {
    // Not a URL at all: z.url has said so.
    if (!URL.canParse(value)) return;
    const url = new URL(value);
    const fix = `use ${url.origin}${url.pathname.replace(/[^/]*$/, '')}`;
    const problem =
      url.username || url.password
        ? 'must not hold a user name or password'
        : url.search || value.includes('?')
          ? `must not have a query ("${url.search || '?'}"): ${fix}`
          : url.hash || value.includes('#')
            ? `must not have a fragment ("${url.hash || '#'}"): ${fix}`
            : !url.pathname.endsWith('/')
              ? /\.[A-Za-z0-9]+$/.test(url.pathname)
                ? `must not name a file ("${url.pathname.split('/').pop()}"): ${fix}`
                : `must end in "/" when it has a path, the folder the site is served from: use ${url.origin}${url.pathname}/`
              : null;
    if (problem) ctx.addIssue({ code: 'custom', message: `"${value}" ${problem}` });
  });

/** A colour as #rrggbb or #rgb. */
const hexColour = z.string().superRefine((value, ctx) => {
  if (parseHex(value) === null)
    ctx.addIssue({
      code: 'custom',
      message: `"${value}" is not a colour: write it as # and six hexadecimal digits, such as #0b3b60 (or three, #fa0)`,
    });
});

export const siteSettingsSchema = z.strictObject({
  siteName: text.refine(
    (v) => !/[{}]/.test(v),
    'must not hold { or }: content uses {siteName} to stand for it',
  ),
  baseUrl: baseUrlSchema,
  /** A North American number (checked when the site is loaded: see src/site/phone.ts). */
  phone: text,
  email: z.email('must be an e-mail address'),
  privacyEmail: z.email('must be an e-mail address'),
  officeHours: text,
  emergencyHours: text,
  /**
   * What happens after a request, in the firm's own words (the confirmation page says it under
   * the thank-you): the only place the site promises a time to call back, such as "within 24
   * hours". Not given: no time is promised.
   */
  responsePromise: text.optional(),
  /**
   * The French pages' words for the settings above: the hours as French writes them, the
   * address French-speaking clients write to, the promise in French. French pages show no
   * promise without `fr.responsePromise`, and the English hours or e-mail without the others.
   */
  fr: z
    .strictObject({
      officeHours: text.optional(),
      emergencyHours: text.optional(),
      email: z.email('must be an e-mail address').optional(),
      responsePromise: text.optional(),
    })
    .optional(),
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
          postalCode,
        })
        .optional(),
      licences: z.array(licenceSchema).optional(),
      /** The year the business was founded: shown as "Since {year}". */
      founded: z
        .number()
        .int('must be a year, such as 2009')
        .min(1800, 'must be a year, such as 2009')
        .max(2100, 'must be a year, such as 2009')
        .optional(),
      /** Associations the business is a member of, each with its own page to check it on. */
      associations: z
        .array(
          z.strictObject({
            name: text,
            url: z.url({ protocol: /^https$/, error: 'must be an https URL' }),
          }),
        )
        .optional(),
      /**
       * The firm's own adjusters, each with the licences they hold and the cities (slugs) they
       * serve: shown on those cities' pages. Only what the owner gives: none, nothing shown.
       */
      adjusters: z
        .array(
          z.strictObject({
            name: text,
            title: text.optional(),
            /** A picture under public/, such as /images/jane.jpg. */
            photo: publicPath.optional(),
            licences: z.array(licenceSchema),
            cities: z.array(text).min(1, 'must name at least one city (its slug)'),
          }),
        )
        .optional(),
      /** The firm's offices, each in a city of the data set (its slug). */
      offices: z
        .array(
          z.strictObject({
            city: text,
            street: text,
            postalCode,
            phone: northAmericanPhone.optional(),
          }),
        )
        .optional(),
    })
    .optional(),
  /**
   * Reviews clients left on a review platform, as they stand there: the words, who wrote them,
   * the platform and the review's address there, and its date; a star rating only as the
   * platform shows it. None given, none shown.
   */
  reviews: z
    .array(
      z.strictObject({
        text,
        author: text,
        source: text,
        url: z.url({ protocol: /^https$/, error: 'must be an https URL' }),
        date: z.iso.date('must be a date as YYYY-MM-DD'),
        rating: z.number().int().min(1).max(5).optional(),
      }),
    )
    .optional(),
  /** The look: two colours (checked for contrast when the site is loaded) and a font. */
  theme: z
    .strictObject({
      colors: z
        .strictObject({ primary: hexColour.optional(), accent: hexColour.optional() })
        .optional(),
      font: z
        .enum(FONT_CHOICES, {
          error: (issue) =>
            `"${String(issue.input)}" is not a bundled font: choose one of ${FONT_CHOICES.join(', ')}`,
        })
        .optional(),
    })
    .optional(),
  /**
   * The owner's own photographs (the team, the offices, real jobs): each a file under public/
   * and the words that say what it shows. Shown on the About pages and, the first three, on the
   * home page; resized at build (src/photos). None given, none shown.
   */
  photos: z
    .array(
      z.strictObject({
        src: publicPath,
        /** What the photo shows, for those who cannot see it. */
        alt: text,
        caption: text.optional(),
        /** The French pages' words; without them French pages show the ones above. */
        fr: z.strictObject({ alt: text, caption: text.optional() }).optional(),
      }),
    )
    .optional(),
  /** The header's logo: an SVG or PNG file of the public folder (/brand/logo.svg or public/brand/logo.svg). */
  logo: z
    .string()
    .trim()
    .superRefine((value, ctx) => {
      if (
        !(value.startsWith(LOGO_PREFIX) || /^\/[^/]/.test(value)) ||
        !/\.(svg|png)$/i.test(value) ||
        value.includes('\\') ||
        value.split('/').some((segment) => segment === '..' || segment === '.')
      )
        ctx.addIssue({
          code: 'custom',
          message: `"${value}" must be the path of an SVG or PNG file in the public folder, such as /brand/logo.svg (the file public/brand/logo.svg)`,
        });
    })
    .optional(),
  /**
   * Where the firm works, and so what the site publishes and claims: whole provinces and
   * territories (codes) and/or single cities (slugs of the data set). Absent: all of Canada.
   * The data set stays whole; only what is inside the area is published (src/site/service-area.ts).
   */
  serviceArea: z
    .strictObject({
      provinces: z
        .array(z.enum(PROVINCE_CODES, { error: `must be one of: ${PROVINCE_CODES.join(', ')}` }))
        .min(1, 'must name at least one province (its code, such as AB), or be left out')
        .optional(),
      cities: z
        .array(text)
        .min(1, 'must name at least one city (its slug, such as calgary), or be left out')
        .optional(),
    })
    .refine((a) => a.provinces !== undefined || a.cities !== undefined, {
      message:
        'must name provinces ("provinces": ["AB"]), cities ("cities": ["calgary"]) or both; leave it out for all of Canada',
    })
    .optional(),
  /**
   * What a lead is worth, by loss range, in dollars: GA4's `generate_lead` value. The endpoint's
   * LEAD_VALUES is the same table for the CRM. Checked against the form's ranges at build.
   */
  leadValues: z
    .record(z.string(), z.number().nonnegative('must be a number of dollars, 0 or more').finite())
    .optional(),
  /**
   * The person in charge of the protection of personal information (Québec's private-sector act,
   * s. 3.1: the business's highest authority, or whom they delegate in writing), named in the
   * privacy policy with the privacy e-mail.
   */
  privacyOfficer: z.strictObject({ name: text, title: text.optional() }).optional(),
  /** Calls attributed first-party, and a call-tracking provider the owner uses. */
  tracking: z
    .strictObject({
      /**
       * Tracking numbers by where the visit came from: the first rule all of whose conditions
       * the visit's campaign (utm_source, utm_medium, utm_campaign, compared without case) or ad
       * click id matches puts its number in every number shown and every call link.
       */
      phones: z
        .array(
          z
            .strictObject({
              source: text.optional(),
              medium: text.optional(),
              campaign: text.optional(),
              clickId: z
                .enum(CLICK_ID_NAMES, { error: `must be one of ${CLICK_ID_NAMES.join(', ')}` })
                .optional(),
              number: northAmericanPhone,
            })
            .refine(
              (r) => r.source || r.medium || r.campaign || r.clickId,
              'needs at least one of source, medium, campaign or clickId',
            ),
        )
        .optional(),
      /** CallRail's swap.js for the company (its "Dynamic Number Insertion" script). */
      callrail: z
        .url({ protocol: /^https$/, error: 'must be an https URL' })
        .refine(
          (u) => /^https:\/\/cdn\.callrail\.com\/companies\/\d+\/\w+\/\d+\/swap\.js$/.test(u),
          "must be CallRail's swap.js address, such as https://cdn.callrail.com/companies/123456789/abcdef0123456789/12/swap.js",
        )
        .optional(),
    })
    .optional(),
  /** An optional booking step on the confirmation page: the operator's GHL calendar widget. */
  booking: z
    .strictObject({
      calendar: z
        .url({ protocol: /^https$/, error: 'must be an https URL' })
        .refine(
          (u) => /^https:\/\/[A-Za-z0-9.-]+\/widget\/bookings?\/[\w-]+\/?$/.test(u),
          "must be a GoHighLevel calendar's booking widget, such as https://api.leadconnectorhq.com/widget/booking/abc123",
        ),
    })
    .optional(),
  /**
   * How many months a programme, amount or deadline may go unread at its source before
   * `generate --strict` refuses to publish it (default 24: see src/site/fact-ages.ts).
   */
  factsMaxAgeMonths: z.number().int('must be a whole number').min(1).max(120).optional(),
  /** Settings that still hold the bundled sample values: `generate` lists them until replaced. */
  sample: z.array(z.enum(['siteName', 'baseUrl', 'email', 'privacyEmail', 'phone'])).optional(),
});

export type CityRecord = z.infer<typeof citySchema>;
export type AreaRecord = z.infer<typeof areaSchema>;
export type Source = z.infer<typeof sourceSchema>;
export type NationalRecord = z.infer<typeof nationalSchema>;
export type SiteSettings = z.infer<typeof siteSettingsSchema>;
export type Business = NonNullable<SiteSettings['business']>;
export type Adjuster = NonNullable<Business['adjusters']>[number];
export type Office = NonNullable<Business['offices']>[number];
export type OwnerPhoto = NonNullable<SiteSettings['photos']>[number];

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
