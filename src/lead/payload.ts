import { langOfPath } from '../i18n/lang.js';
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
  source: string;
}

/** The language a lead was written in, by its page: the owner calls back in it. */
export const LANGUAGE_NAMES = { en: 'English', fr: 'French' } as const;

export function contactFields(lead: Lead): ContactFields {
  const base = {
    email: lead.email,
    phone: lead.phone,
    ...splitName(lead.fullName),
    source: `Website ${lead.page}`,
  };
  // A lead from a French page is tagged and marked so the owner calls back in French; an
  // English one is sent exactly as the spec's payload has it.
  const french = langOfPath(lead.page) === 'fr';
  const tagged = (tags: string[]) => (french ? [...tags, LANGUAGE_NAMES.fr] : tags);
  const language: Record<string, string> = french ? { preferred_language: LANGUAGE_NAMES.fr } : {};
  if (lead.form === 'contact') {
    return { ...base, address1: '', tags: tagged(['Website Message']), custom: { ...language } };
  }
  const started = lead.hasStartedClaim;
  const value = ESTIMATED_VALUE_LABELS[lead.estimatedValue];
  return {
    ...base,
    address1: lead.address,
    tags: tagged(['Insurance Claim', lead.claimType, ...lead.damageTypes]),
    custom: {
      ...language,
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

/** The note: a readable summary of the claim, or the visitor's message. */
export function noteBody(lead: Lead): string {
  if (lead.form === 'contact') {
    return [
      `Message from the website contact form (${lead.page})`,
      '',
      lead.message,
      '',
      `Phone: ${lead.phone || 'not given'}`,
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
    submissionMark(lead),
  ].join('\n');
}
