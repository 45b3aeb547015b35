import type { LeadConfig } from './config.js';
import type { CrmError } from './crm.js';
import type { ContactFields } from './payload.js';
import { FIRST_FIELDS } from './touch-fields.js';

/** One call to the CRM, within the deadline and the rate limit, judged by its status. */
export type Call = (
  method: 'GET' | 'POST',
  url: string,
  body: unknown,
  deadline: number,
) => Promise<unknown>;

/**
 * What the CRM holds already of the person, by the location's duplicate rule (the one its upsert
 * follows): whether the contact has a source and a first touch, which a later lead never
 * replaces. `unknown` when the CRM would not say (the token lacks contacts.readonly): the lead
 * then writes neither, so nothing the contact holds can be replaced.
 */
export type Existing =
  | { found: false }
  | { found: true; hasSource: boolean; hasFirstTouch: boolean }
  | { found: 'unknown' };

interface FoundContact {
  id?: string;
  source?: string;
  customFields?: Array<{ id?: string; value?: unknown }>;
}

/** `GET /contacts/search/duplicate` (contacts.readonly), by e-mail and phone. */
export async function findExisting(
  call: Call,
  config: LeadConfig,
  contact: ContactFields,
  ids: Record<string, string>,
  deadline: number,
): Promise<Existing> {
  const query = new URLSearchParams({ locationId: config.locationId });
  if (contact.standard.email) query.set('email', contact.standard.email);
  if (contact.standard.phone) query.set('number', contact.standard.phone);
  let found: FoundContact | null | undefined;
  try {
    const json = (await call(
      'GET',
      `${config.baseUrl}/contacts/search/duplicate?${query}`,
      undefined,
      deadline,
    )) as { contact?: FoundContact | null } | null;
    found = json?.contact;
  } catch (err) {
    const kind = (err as Partial<CrmError>).kind;
    if (kind === 'auth' || kind === 'permanent') return { found: 'unknown' };
    throw err;
  }
  if (!found?.id) return { found: false };
  const firstIds = new Set(FIRST_FIELDS.map((k) => ids[k]).filter(Boolean));
  return {
    found: true,
    hasSource: Boolean(found.source?.trim()),
    hasFirstTouch: (found.customFields ?? []).some(
      (f) => f.id && firstIds.has(f.id) && String(f.value ?? '').trim() !== '',
    ),
  };
}

/**
 * The upsert's body: the standard fields the visitor gave, the custom fields by the location's
 * ids, and for a contact without them its first source and touch; minus what the CRM refused.
 */
export function upsertBody(
  contact: ContactFields,
  ids: Record<string, string>,
  existing: Existing,
  locationId: string,
  refused: ReadonlySet<string>,
): Record<string, unknown> {
  const isNew = existing.found === false;
  const writeSource = isNew || (existing.found === true && !existing.hasSource);
  const writeFirst = isNew || (existing.found === true && !existing.hasFirstTouch);
  const custom = { ...contact.custom, ...(writeFirst ? contact.first.custom : {}) };
  const standard = Object.entries(contact.standard).filter(([k]) => !refused.has(k));
  return {
    ...Object.fromEntries(standard),
    locationId,
    ...(writeSource && !refused.has('source') ? { source: contact.first.source } : {}),
    customFields: Object.entries(custom)
      .filter(([key]) => ids[key] && !refused.has(key))
      .map(([key, field_value]) => ({ id: ids[key], field_value })),
  };
}

/**
 * The fields a 422 names among those sent, in class-validator's words as GoHighLevel answers
 * them: "phone must be a valid phone number", "property x should not exist",
 * "customFields.3.field_value must be a string". A custom field is named by its key. Empty when
 * the refusal names nothing that was sent: then the lead is refused as a whole.
 */
export function refusedFields(
  status: number | undefined,
  messages: readonly string[],
  body: Record<string, unknown>,
  ids: Record<string, string>,
): string[] {
  if (status !== 422) return [];
  const keyOfId = new Map(Object.entries(ids).map(([k, id]) => [id, k]));
  const sent = body.customFields as Array<{ id: string }> | undefined;
  const out = new Set<string>();
  for (const m of messages) {
    const name = /^property (\S+) should not exist/.exec(m)?.[1] ?? m.split(/\s/)[0] ?? '';
    const custom = /^customFields\.(\d+)\b/.exec(name);
    if (custom) {
      const key = keyOfId.get(sent?.[Number(custom[1])]?.id ?? '');
      if (key) out.add(key);
    } else if (name in body && name !== 'locationId' && name !== 'customFields') out.add(name);
  }
  return [...out];
}
