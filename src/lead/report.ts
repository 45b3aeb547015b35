import { channelOf, type Touch } from './attribution.js';
import { firstTouchOf } from './payload.js';
import type { Lead } from './schema.js';

/** Where a lead came from, as counted: no click id, no referring page, nothing of a person. */
export interface Channel {
  source: string;
  medium: string;
  campaign?: string;
}

/**
 * What is counted of an accepted lead, and kept after its personal data is deleted (delivered,
 * refused for good, or forgotten on request): when, the form, the city and province of the page
 * it was sent from, the claim's type, damage and loss range, and its first and last touch's
 * source, medium and campaign. None of it names, reaches or describes a person.
 */
export interface LeadFacts {
  receivedAt: string;
  form: Lead['form'];
  city?: string;
  province?: string;
  claimType?: string;
  damageTypes?: string[];
  lossRange?: string;
  first: Channel;
  last: Channel;
}

const channel = (touch: Touch | undefined): Channel => channelOf(touch);

export function factsOf(lead: Lead, receivedAt: string): LeadFacts {
  const claim =
    lead.form === 'contact'
      ? {}
      : {
          ...(lead.city ? { city: lead.city } : {}),
          ...(lead.province ? { province: lead.province } : {}),
          claimType: lead.claimType,
          damageTypes: lead.damageTypes,
          lossRange: lead.estimatedValue,
        };
  return {
    receivedAt,
    form: lead.form,
    ...claim,
    first: channel(firstTouchOf(lead)),
    last: channel(lead.attribution),
  };
}

/** What became of a counted lead: its store state, or `dropped` once no record of it is left. */
export type FactStatus = 'waiting' | 'delivered' | 'dead' | 'dropped';

export type CountedLead = LeadFacts & { submissionId: string; status: FactStatus };
