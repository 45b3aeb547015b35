import * as z from 'zod';
import { PROVINCE_CODES } from '../site/provinces.js';
import { TOUCH_FIELDS, TOUCH_RULES, type TouchField } from './attribution.js';
import { CONSENT_VERSION, consentVersion } from './consent-wording.js';
import { normalPostalCode, POSTAL_CODE } from './postal-code.js';
import {
  CLAIM_TYPES,
  DAMAGE_TYPES,
  EMAIL,
  LIMITS,
  PREFERRED_CONTACT,
  VALUE_ANSWERS,
} from './rules.js';

const text = (max: number) =>
  z.string().trim().min(1, 'is required').max(max, `must be at most ${max} characters`);

/**
 * A field of one line (a name, a phone number, a city): a line break or another control
 * character anywhere in it is refused, since it would reach the CRM and the owner's screens as
 * it is; then it is trimmed, and runs of spaces are made one.
 */
const ONE_LINE = /^[^\p{Cc}\u2028\u2029]*$/u;
const singleLine = () =>
  z.string().regex(ONE_LINE, 'must be one line, without line breaks or control characters').trim();
const collapse = (s: string) => s.replace(/\s+/g, ' ');
const line = (max: number) =>
  singleLine()
    .min(1, 'is required')
    .max(max, `must be at most ${max} characters`)
    .transform(collapse);
const optionalLine = (max: number) =>
  singleLine()
    .max(max, `must be at most ${max} characters`)
    .transform(collapse)
    .optional()
    .default('');
const email = singleLine().max(LIMITS.email).regex(EMAIL, 'is not an e-mail address');

/** A touch (src/lead/attribution.ts): each field by its own limit and pattern. */
const touchField = (field: TouchField | 'at') =>
  z
    .string()
    .max(TOUCH_RULES[field].max, `must be at most ${TOUCH_RULES[field].max} characters`)
    .regex(TOUCH_RULES[field].pattern, 'has characters it cannot have')
    .optional();
const touch = z.object(
  Object.fromEntries([...TOUCH_FIELDS, 'at' as const].map((f) => [f, touchField(f)])) as Record<
    TouchField | 'at',
    ReturnType<typeof touchField>
  >,
);

const choice = z.enum(['granted', 'denied'], { error: 'must be granted or denied' }).optional();

/** Fields every form sends besides its answers. */
const envelope = {
  submissionId: z.string().regex(/^[A-Za-z0-9-]{16,64}$/, 'is not a submission id'),
  page: z
    .string()
    .max(300)
    .regex(/^\/[^\s\p{Cc}]*$/u, 'must be a path')
    .optional()
    .default('/'),
  /** The honeypot: people never see it, so anything in it is a bot. */
  website: z.string().max(300).optional().default(''),
  /** The touch of the visit that sent it (the session's), and the first one, if kept. */
  attribution: touch.optional(),
  firstTouch: touch.optional(),
  /** The consent wording shown under the form, word for word, and its version. */
  consentText: optionalLine(1000),
  consentVersion: z.string().regex(CONSENT_VERSION, 'is not a consent version').optional(),
  /** The visitor's choices when the form was sent, by purpose, on a site that asks for them. */
  analyticsConsent: choice,
  advertisingConsent: choice,
};

/** The version a form sends must be the one of the wording it sends. */
const consentMatches = (lead: { consentText: string; consentVersion?: string | undefined }) =>
  lead.consentVersion === undefined
    ? lead.consentText === ''
    : consentVersion(lead.consentVersion.slice(0, 2), lead.consentText) === lead.consentVersion;
const consentIssue = {
  message: 'consentVersion is not the version of consentText',
  path: ['consentVersion'],
};

export const claimSchema = z
  .object({
    ...envelope,
    form: z.enum(['questionnaire', 'assessment']),
    city: optionalLine(LIMITS.city),
    /** The city's province or territory, where the page has one (the CRM's `state`). */
    province: z.enum(PROVINCE_CODES, { error: 'is not a province or territory code' }).optional(),
    claimType: z.enum(CLAIM_TYPES, { error: 'must be residential or commercial' }),
    damageTypes: z
      .array(z.enum(DAMAGE_TYPES, { error: `must be one of ${DAMAGE_TYPES.join(', ')}` }))
      .min(1, 'must name at least one type of damage')
      .max(DAMAGE_TYPES.length)
      .transform((list) => [...new Set(list)]),
    estimatedValue: z.enum(VALUE_ANSWERS, { error: 'is not one of the value ranges' }),
    hasStartedClaim: z.boolean().default(false),
    damageDescription: text(LIMITS.text),
    fullName: line(LIMITS.name),
    email,
    phone: line(LIMITS.phone),
    address: line(LIMITS.address),
    /** The property's city and postal code, when the visitor gives them (both optional). */
    propertyCity: optionalLine(LIMITS.city),
    postalCode: z
      .string()
      .trim()
      .refine(
        (v) => v === '' || POSTAL_CODE.test(v),
        'is not a Canadian postal code, such as M5V 2T6',
      )
      .transform((v) => (v ? normalPostalCode(v) : ''))
      .optional()
      .default(''),
    preferredContact: z.enum(PREFERRED_CONTACT, { error: 'must be phone, email or both' }),
  })
  .refine(consentMatches, consentIssue);

export const messageSchema = z
  .object({
    ...envelope,
    form: z.literal('contact'),
    fullName: line(LIMITS.name),
    email,
    phone: optionalLine(LIMITS.phone),
    message: text(LIMITS.text),
  })
  .refine(consentMatches, consentIssue);

export const leadSchema = z.discriminatedUnion('form', [claimSchema, messageSchema], {
  error: 'form must be questionnaire, assessment or contact',
});

/** When the endpoint accepted a lead (ISO): set by it, never taken from the visitor. */
type Received = { receivedAt?: string };
export type ClaimLead = z.infer<typeof claimSchema> & Received;
export type Lead = z.infer<typeof leadSchema> & Received;

/** A no-JS form post as the object the JSON path sends: lists, booleans, absent fields. */
export function fromFormData(params: URLSearchParams): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of new Set(params.keys())) out[key] = params.get(key);
  if (params.has('damageTypes') || out.form !== 'contact')
    out.damageTypes = params.getAll('damageTypes');
  out.hasStartedClaim = params.get('hasStartedClaim') === 'true';
  // Turnstile's widget names its token so in the form it posts.
  if (params.has('cf-turnstile-response')) out.turnstileToken = params.get('cf-turnstile-response');
  if (out.form === 'contact') {
    delete out.damageTypes;
    delete out.hasStartedClaim;
  }
  return out;
}

/** The first problem of a failed validation, as a short reason for the response. */
export function reason(error: z.ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid submission';
  const field = issue.path.join('.');
  return field ? `${field} ${issue.message}` : issue.message;
}
