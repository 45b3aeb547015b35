import { langOfPath } from '../i18n/lang.js';
import { sourceOf, TOUCH_FIELDS, type Touch } from './attribution.js';
import { crmPhone } from './person.js';
import { provinceOfPostalCode } from './postal-code.js';
import { ESTIMATED_VALUE_LABELS, label } from './rules.js';
import type { Lead } from './schema.js';
import { FIRST_FIELDS, firstFields, LAST_FIELDS, lastFields } from './touch-fields.js';

/** The first word of the full name, and the remaining words (the CRM's first and last name). */
function splitName(fullName: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = fullName.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

/** The standard fields a contact may have: each sent only with a value, never empty. */
type StandardField =
  | 'email'
  | 'phone'
  | 'firstName'
  | 'lastName'
  | 'address1'
  | 'city'
  | 'state'
  | 'postalCode'
  | 'country';

/** The contact the CRM receives, independent of the API version. */
export interface ContactFields {
  /**
   * What the visitor gave, as the CRM's standard fields: an empty field is left out, never sent
   * (GoHighLevel replaces a contact's value with what an upsert sends, an empty one included).
   */
  standard: Partial<Record<StandardField, string>>;
  tags: string[];
  /** The custom fields every lead writes, by key: its answers and its last touch. */
  custom: Record<string, string>;
  /**
   * What only the contact's first lead writes: the standard `source` (where the person first
   * came from, "google / cpc / spring-flood", "direct") and the `first_*` fields.
   */
  first: { source: string; custom: Record<string, string> };
}

/** The custom fields a lead may fill: what `claimsite leads check` looks for in the location. */
export const LEAD_CUSTOM_FIELDS: ReadonlyArray<{ key: string; dataType: 'TEXT' | 'LARGE_TEXT' }> = [
  ...[
    'estimated_value',
    'claim_value',
    'claim_status',
    'claim_started',
    'preferred_contact',
    'preferred_language',
  ].map((key) => ({ key, dataType: 'TEXT' as const })),
  { key: 'claim_details', dataType: 'LARGE_TEXT' },
  { key: 'damage_description', dataType: 'LARGE_TEXT' },
  ...[...FIRST_FIELDS, ...LAST_FIELDS].map((key) => ({ key, dataType: 'TEXT' as const })),
];

/** The language a lead was written in, by its page: the owner calls back in it. */
const LANGUAGE_NAMES = { en: 'English', fr: 'French' } as const;

/** The touch a contact first came by: the one the browser kept (with consent), or this visit's. */
export const firstTouchOf = (lead: Lead) => lead.firstTouch ?? lead.attribution;

/** Only the fields with a value. */
const given = <K extends string>(fields: Record<K, string | undefined>) =>
  Object.fromEntries(Object.entries(fields).filter(([, v]) => v)) as Partial<Record<K, string>>;

/** The property's address as the visitor gave it: the street line, city, postal code. */
function addressOf(lead: Lead): Partial<Record<StandardField, string>> {
  if (lead.form === 'contact') return {};
  const province = lead.postalCode ? provinceOfPostalCode(lead.postalCode) : undefined;
  return given({
    address1: lead.address,
    city: lead.propertyCity,
    state: province,
    postalCode: lead.postalCode,
    // A Canadian postal code says the country; the site asks for nothing else that would.
    country: lead.postalCode ? 'CA' : undefined,
  });
}

export function contactFields(lead: Lead): ContactFields {
  const { firstName, lastName } = splitName(lead.fullName);
  const standard = {
    ...given({ email: lead.email, phone: crmPhone(lead.phone)?.e164, firstName, lastName }),
    ...addressOf(lead),
  };
  const first = { source: sourceOf(firstTouchOf(lead)), custom: firstFields(firstTouchOf(lead)) };
  // A lead from a French page is tagged and marked so the owner calls back in French.
  const french = langOfPath(lead.page) === 'fr';
  const tagged = (tags: string[]) => (french ? [...tags, LANGUAGE_NAMES.fr] : tags);
  const common = {
    ...(french ? { preferred_language: LANGUAGE_NAMES.fr } : {}),
    ...lastFields(lead.attribution),
  };
  if (lead.form === 'contact')
    return { standard, first, tags: tagged(['Website Message']), custom: common };
  const started = lead.hasStartedClaim;
  const value = valueLabel(lead.estimatedValue);
  return {
    standard,
    first,
    tags: tagged(['Insurance Claim', lead.claimType, ...lead.damageTypes]),
    custom: {
      ...common,
      estimated_value: lead.estimatedValue,
      claim_value: value,
      claim_status: started ? 'Started' : 'Not Started',
      claim_details: `${label(lead.claimType)} claim in ${lead.city || 'an unnamed city'}: ${lead.damageTypes.map(label).join(', ')} damage, ${value}`,
      damage_description: lead.damageDescription,
      claim_started: started ? 'Yes' : 'No',
      preferred_contact: lead.preferredContact,
    },
  };
}

/** A loss range as people read it ("$100,000 - $250,000"), or its key for one without a label. */
export const valueLabel = (range: string) =>
  (ESTIMATED_VALUE_LABELS as Record<string, string>)[range] ?? range;

/**
 * The line that ties a note to its submission: a delivery that may have added the note already
 * looks for it among the contact's notes before adding one.
 */
export const submissionMark = (lead: Lead) => `Submission: ${lead.submissionId}`;

/** A touch's fields as one line: "utm_source=google, gclid=Cj0K...". */
const touchLine = (touch: Touch | undefined) =>
  TOUCH_FIELDS.filter((f) => touch?.[f])
    .map((f) => `${f}=${touch?.[f]}`)
    .join(', ');

/**
 * Where the lead came from and what the visitor agreed to, for the note: the touch of the visit
 * that sent it, the first touch where the browser kept one (with consent), the visitor's choices
 * by purpose, and the consent wording shown under the form with its version and when the
 * endpoint received it.
 */
function storyLines(lead: Lead): string[] {
  const lines = [
    `Source: ${sourceOf(lead.attribution)}`,
    `Attribution: ${touchLine(lead.attribution) || 'none (no campaign, ad click or referring site)'}`,
  ];
  const first = lead.firstTouch;
  if (first && touchLine(first) !== touchLine(lead.attribution))
    lines.push(
      `First visit${first.at ? ` (${first.at.slice(0, 10)})` : ''}: ${sourceOf(first)}; ${touchLine(first) || 'none'}`,
    );
  if (lead.analyticsConsent) lines.push(`Analytics cookies: ${lead.analyticsConsent}`);
  if (lead.advertisingConsent) lines.push(`Advertising cookies: ${lead.advertisingConsent}`);
  if (lead.consentText)
    lines.push(
      `Consent shown under the form (${lead.consentVersion}), given by sending it${lead.receivedAt ? ` at ${lead.receivedAt}` : ''}: "${lead.consentText}"`,
    );
  return lines;
}

/** The phone as the CRM has it (E.164) with its extension, or as typed when it is no number. */
function phoneLine(phone: string): string {
  if (!phone) return 'not given';
  const p = crmPhone(phone);
  if (!p) return `${phone} (as typed: not a valid number, so not in the contact's phone field)`;
  return `${p.e164}${p.ext ? ` ext. ${p.ext}` : ''}`;
}

/** What the delivery could not do in the CRM, for the note, so nothing is lost silently. */
interface NoteExtras {
  /** Standard or custom fields the CRM refused (422) and the contact went without. */
  refused?: readonly string[];
  /** Steps the CRM refused (the opportunity, the workflow), in its words. */
  failed?: readonly string[];
}

function extraLines(extras: NoteExtras): string[] {
  const lines: string[] = [];
  if (extras.refused?.length)
    lines.push(
      `Refused by the CRM, so not in the contact's fields (the answers above have them): ${extras.refused.join(', ')}`,
    );
  for (const f of extras.failed ?? []) lines.push(f);
  return lines;
}

/** The note: a readable summary of the claim, or the visitor's message. */
export function noteBody(lead: Lead, extras: NoteExtras = {}): string {
  if (lead.form === 'contact') {
    return [
      `Message from the website contact form (${lead.page})`,
      '',
      lead.message,
      '',
      `Phone: ${phoneLine(lead.phone)}`,
      ...storyLines(lead),
      ...extraLines(extras),
      submissionMark(lead),
    ].join('\n');
  }
  const address = [lead.address, lead.propertyCity, lead.postalCode].filter(Boolean).join(', ');
  return [
    `Insurance claim request from ${lead.page}${lead.city ? ` (${lead.city})` : ''}`,
    `Claim type: ${label(lead.claimType)}`,
    `Damage: ${lead.damageTypes.map(label).join(', ')}`,
    `Estimated value: ${valueLabel(lead.estimatedValue)}`,
    `Claim with insurer: ${lead.hasStartedClaim ? 'Started' : 'Not Started'}`,
    `Description: ${lead.damageDescription}`,
    `Preferred contact: ${label(lead.preferredContact)} (phone ${phoneLine(lead.phone)}, email ${lead.email})`,
    `Property address: ${address}`,
    ...storyLines(lead),
    ...extraLines(extras),
    submissionMark(lead),
  ].join('\n');
}
