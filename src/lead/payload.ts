import { LANG_PREFIX, langOfPath } from '../i18n/lang.js';
import { NATIONAL } from '../site/segments.js';
import { sourceOf, TOUCH_FIELDS, type Touch } from './attribution.js';
import { ESTIMATED_VALUE_LABELS, label } from './rules.js';
import type { Lead } from './schema.js';

/** The first word of the full name, and the remaining words (the CRM's first and last name). */
export function splitName(fullName: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = fullName.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

/** The contact the CRM receives, independent of the API version. */
export interface ContactFields {
  email: string;
  phone: string;
  firstName: string;
  lastName: string;
  address1: string;
  tags: string[];
  /** The claim's custom fields, by key. */
  custom: Record<string, string>;
  /** Where the lead came from, as people read it ("google / cpc / spring-flood", "direct"). */
  source: string;
  /** The city of the page it was sent from, and its province's code; none from a national page. */
  city?: string;
  state?: string;
  country: 'CA';
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
  ...TOUCH_FIELDS.map((key) => ({ key, dataType: 'TEXT' as const })),
];

/** The touch's fields that have a value: an empty one would erase what an earlier lead set. */
function touchFields(touch: Touch | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const f of TOUCH_FIELDS) if (touch?.[f]) out[f] = touch[f];
  return out;
}

/** A page of the national entry (/canada/..., /fr/canada/...) names no city of its own. */
const national = (page: string) =>
  page
    .split('/')
    .filter(Boolean)
    .find((s, i) => i > 0 || s !== LANG_PREFIX.fr) === NATIONAL;

/** The language a lead was written in, by its page: the owner calls back in it. */
export const LANGUAGE_NAMES = { en: 'English', fr: 'French' } as const;

export function contactFields(lead: Lead): ContactFields {
  const base = {
    email: lead.email,
    phone: lead.phone,
    ...splitName(lead.fullName),
    source: sourceOf(lead.attribution),
    country: 'CA' as const,
  };
  const touch = touchFields(lead.attribution);
  // A lead from a French page is tagged and marked so the owner calls back in French; an
  // English one is sent exactly as the spec's payload has it.
  const french = langOfPath(lead.page) === 'fr';
  const tagged = (tags: string[]) => (french ? [...tags, LANGUAGE_NAMES.fr] : tags);
  const language: Record<string, string> = french ? { preferred_language: LANGUAGE_NAMES.fr } : {};
  if (lead.form === 'contact') {
    return {
      ...base,
      address1: '',
      tags: tagged(['Website Message']),
      custom: { ...language, ...touch },
    };
  }
  const place = national(lead.page) ? {} : lead.city ? { city: lead.city } : {};
  const started = lead.hasStartedClaim;
  const value = ESTIMATED_VALUE_LABELS[lead.estimatedValue];
  return {
    ...base,
    ...place,
    ...(lead.province ? { state: lead.province } : {}),
    address1: lead.address,
    tags: tagged(['Insurance Claim', lead.claimType, ...lead.damageTypes]),
    custom: {
      ...language,
      ...touch,
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
 * that sent it, the first touch where the browser kept one (with consent), and the consent
 * wording shown under the form with its version and when the endpoint received it.
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
  if (lead.consentText)
    lines.push(
      `Consent shown under the form (${lead.consentVersion}), given by sending it${lead.receivedAt ? ` at ${lead.receivedAt}` : ''}: "${lead.consentText}"`,
    );
  return lines;
}

/** The note: a readable summary of the claim, or the visitor's message. */
export function noteBody(lead: Lead): string {
  if (lead.form === 'contact') {
    return [
      `Message from the website contact form (${lead.page})`,
      '',
      lead.message,
      '',
      `Phone: ${lead.phone || 'not given'}`,
      ...storyLines(lead),
      submissionMark(lead),
    ].join('\n');
  }
  return [
    `Insurance claim request from ${lead.page}${lead.city ? ` (${lead.city})` : ''}`,
    `Claim type: ${label(lead.claimType)}`,
    `Damage: ${lead.damageTypes.map(label).join(', ')}`,
    `Estimated value: ${ESTIMATED_VALUE_LABELS[lead.estimatedValue]}`,
    `Claim with insurer: ${lead.hasStartedClaim ? 'Started' : 'Not Started'}`,
    `Description: ${lead.damageDescription}`,
    `Preferred contact: ${label(lead.preferredContact)} (phone ${lead.phone}, email ${lead.email})`,
    `Property address: ${lead.address}`,
    ...storyLines(lead),
    submissionMark(lead),
  ].join('\n');
}
