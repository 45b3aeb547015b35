import { sourceOf } from './attribution.js';
import type { LeadConfig } from './config.js';
import type { Call } from './contact-write.js';
import { leadValue } from './lead-values.js';
import { firstTouchOf, valueLabel } from './payload.js';
import { label } from './rules.js';
import type { Lead } from './schema.js';

/**
 * The opportunity custom field (model `opportunity`) that carries where the lead came from: its
 * first touch, the ad that brought the person where the browser kept it.
 */
export const OPPORTUNITY_SOURCE_FIELD = 'lead_source';

/**
 * The opportunity's name, as the pipeline's card shows it: who, what, and the submission's id
 * at the end, by which a later attempt finds it rather than making a second one.
 */
function opportunityName(lead: Lead): string {
  const who = lead.fullName.slice(0, 80);
  const what =
    lead.form === 'contact'
      ? 'Website message'
      : `${label(lead.claimType)}: ${lead.damageTypes.map(label).join(', ')}, ${valueLabel(lead.estimatedValue)}`;
  return `${who} · ${what} · ${lead.submissionId}`;
}

/** The lead's value by its loss range, or none (a message, or a range the table has no value for). */
const opportunityValue = (lead: Lead, config: LeadConfig) =>
  lead.form === 'contact' ? undefined : leadValue(lead.estimatedValue, config.leadValues);

/**
 * The submission's opportunity, made once whatever fails: the contact's opportunities in the
 * pipeline are searched first (`GET /opportunities/search`, opportunities.readonly) for one
 * whose name ends with the submission's id, and one is created (`POST /opportunities/`,
 * opportunities.write) only when there is none. An attempt whose answer was lost, or a process
 * killed after the CRM made it, finds it at the next attempt. Returns its id.
 */
export async function ensureOpportunity(
  call: Call,
  config: LeadConfig & { pipelineId: string; pipelineStageId: string },
  lead: Lead,
  contactId: string,
  deadline: number,
): Promise<string> {
  const query = new URLSearchParams({
    location_id: config.locationId,
    pipeline_id: config.pipelineId,
    contact_id: contactId,
    status: 'all',
    limit: '100',
  });
  const found = (await call(
    'GET',
    `${config.baseUrl}/opportunities/search?${query}`,
    undefined,
    deadline,
  )) as { opportunities?: Array<{ id?: string; name?: string }> } | null;
  const mine = found?.opportunities?.find((o) => o.name?.endsWith(lead.submissionId));
  if (mine?.id) return mine.id;
  const value = opportunityValue(lead, config);
  const made = (await call(
    'POST',
    `${config.baseUrl}/opportunities/`,
    {
      pipelineId: config.pipelineId,
      locationId: config.locationId,
      name: opportunityName(lead),
      pipelineStageId: config.pipelineStageId,
      status: 'open',
      contactId,
      ...(value !== undefined ? { monetaryValue: value } : {}),
      // By key, as CreateDto allows for an opportunity's fields; a location without the field
      // keeps the source in the contact's fields and note.
      customFields: [{ key: OPPORTUNITY_SOURCE_FIELD, field_value: sourceOf(firstTouchOf(lead)) }],
    },
    deadline,
  )) as { opportunity?: { id?: string } } | null;
  const id = made?.opportunity?.id;
  // Tried again (withRetry takes any other error as transient): the search then finds it.
  if (!id) throw new Error('answered without an opportunity id');
  return id;
}
