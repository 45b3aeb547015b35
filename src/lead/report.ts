import { channelOf, type Touch } from './attribution.js';
import { firstTouchOf } from './payload.js';
import type { Lead } from './schema.js';

/** Where a lead came from, as counted: no click id, no referring page, nothing of a person. */
interface Channel {
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

/** How `claimsite leads report` groups the leads. */
export const REPORT_GROUPS = ['source', 'city', 'claim', 'week'] as const;
export type ReportGroup = (typeof REPORT_GROUPS)[number];

export interface ReportRow {
  group: string;
  leads: number;
  delivered: number;
  waiting: number;
  /** Refused by the CRM for good (dead letters). */
  refused: number;
  /** Dropped or forgotten on request: no record of the lead is left but this count. */
  dropped: number;
  /** What the leads are worth by the value table, in dollars. */
  value: number;
}

/** The Monday (UTC) of a date's week, as YYYY-MM-DD. */
function weekOf(iso: string): string {
  const d = new Date(`${iso.slice(0, 10)}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() - ((d.getUTCDay() + 6) % 7));
  return d.toISOString().slice(0, 10);
}

/** The group a lead counts in: the first touch's source and medium, its city, claim or week. */
function groupOf(lead: CountedLead, by: ReportGroup): string {
  if (by === 'city')
    return lead.city ? `${lead.city}${lead.province ? `, ${lead.province}` : ''}` : '(no city)';
  if (by === 'claim') return lead.claimType ?? 'message';
  if (by === 'week') return `week of ${weekOf(lead.receivedAt)}`;
  return lead.first.source === 'direct' ? 'direct' : `${lead.first.source} / ${lead.first.medium}`;
}

/** The leads counted by group, the largest first (by week: in order of time). */
export function summarise(
  leads: readonly CountedLead[],
  by: ReportGroup,
  worth: (lead: CountedLead) => number | undefined,
): ReportRow[] {
  const rows = new Map<string, ReportRow>();
  for (const lead of leads) {
    const group = groupOf(lead, by);
    const row = rows.get(group) ?? {
      group,
      leads: 0,
      delivered: 0,
      waiting: 0,
      refused: 0,
      dropped: 0,
      value: 0,
    };
    row.leads++;
    if (lead.status === 'dead') row.refused++;
    else row[lead.status]++;
    row.value += worth(lead) ?? 0;
    rows.set(group, row);
  }
  const list = [...rows.values()];
  return by === 'week'
    ? list.sort((a, b) => a.group.localeCompare(b.group))
    : list.sort((a, b) => b.leads - a.leads || a.group.localeCompare(b.group));
}
