import { randomUUID } from 'node:crypto';
import { LEAD_CUSTOM_FIELDS } from '../../src/lead/payload.js';
import { shortReference } from '../../src/lead/reference.js';
import type { ClaimLead } from '../../src/lead/schema.js';

/** A complete questionnaire submission, as the browser sends it. */
export const sampleClaim = (over: Partial<ClaimLead> = {}) => ({
  form: 'questionnaire' as const,
  submissionId: randomUUID(),
  page: '/toronto/public-adjusters/',
  website: '',
  city: 'Toronto',
  province: 'ON' as const,
  claimType: 'residential' as const,
  damageTypes: ['water' as const, 'storm' as const],
  estimatedValue: '100k_250k' as const,
  hasStartedClaim: true,
  damageDescription: 'A burst pipe flooded the basement.',
  fullName: 'Marie-Claire van der Berg',
  email: 'marie@example.ca',
  phone: '416-555-0199',
  address: '12 King St W, Toronto, ON',
  preferredContact: 'both' as const,
  ...over,
});

/** Every custom field a lead may fill, as a location set up by `claimsite leads check --fix` has them. */
export const LEAD_FIELDS = LEAD_CUSTOM_FIELDS.map((f) => ({ name: f.key, dataType: f.dataType }));

/** A submission as a form posted without JavaScript sends it: lists as repeated fields. */
export function formOf(claim: Record<string, unknown>): URLSearchParams {
  const form = new URLSearchParams();
  for (const [k, v] of Object.entries(claim)) {
    if (Array.isArray(v)) for (const item of v) form.append(k, String(item));
    else form.append(k, String(v));
  }
  return form;
}

/** The confirmation page's query the endpoint answers a form post of `claim` with. */
export const confirmationQuery = (claim: {
  city: string;
  submissionId: string;
  damageTypes: string[];
}) =>
  new URLSearchParams({
    city: claim.city,
    ref: shortReference(claim.submissionId),
    damage: claim.damageTypes.join(),
  }).toString();
