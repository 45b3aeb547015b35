import { keyOf, type LocationField } from './custom-fields.js';
import { LEAD_CUSTOM_FIELDS } from './payload.js';
import type { Answer, Probe } from './setup-check.js';

type Wanted = { key: string; dataType: 'TEXT' | 'LARGE_TEXT'; model: 'contact' | 'opportunity' };

const fieldsOf = (listing: Answer) =>
  ((listing.json as { customFields?: LocationField[] } | null)?.customFields ?? []).filter(
    (f) => f.id,
  );

/**
 * Every custom field a lead fills, present by its key (`contact.<key>`), or by the id
 * GHL_CUSTOM_FIELD_IDS gives it; an id of the map that is no field, or a key no lead fills, is
 * named. With `fix`, each missing field is created, and only those.
 */
export async function checkFields(probe: Probe, listing: Answer, fix: boolean): Promise<void> {
  const { config } = probe;
  const fields = fieldsOf(listing);
  const byKey = new Map(fields.map((f) => [keyOf(f), f]));
  const ids = new Set(fields.map((f) => f.id));
  const missing: Wanted[] = [];
  for (const field of LEAD_CUSTOM_FIELDS) {
    const mapped = config.customFieldIds[field.key];
    if (mapped !== undefined) {
      if (ids.has(mapped))
        probe.ok(`custom field ${field.key}: ${mapped}, from GHL_CUSTOM_FIELD_IDS`);
      else
        probe.fix(
          `GHL_CUSTOM_FIELD_IDS maps ${field.key} to ${mapped}, which is no custom field of the location: remove it from the map, or give the field's id`,
        );
      continue;
    }
    const known = byKey.get(field.key);
    if (known) probe.ok(`custom field ${field.key}: ${known.id}`);
    else missing.push({ ...field, model: 'contact' });
  }
  for (const key of Object.keys(config.customFieldIds))
    if (!LEAD_CUSTOM_FIELDS.some((f) => f.key === key))
      probe.fix(`GHL_CUSTOM_FIELD_IDS names ${key}, which no lead fills: remove it from the map`);
  for (const field of missing) await missingField(probe, field, fix);
}

/**
 * The opportunities' own field for the lead's source (model `opportunity`), sent by its key:
 * present, or created with `fix`.
 */
export async function checkOpportunityField(probe: Probe, key: string, fix: boolean) {
  const listing = await probe.call(
    'GET',
    `/locations/${probe.location}/customFields?model=opportunity`,
  );
  if (listing.status !== 200) {
    probe.fix(`the opportunities' custom fields could not be listed (${probe.said(listing)})`);
    return;
  }
  const known = fieldsOf(listing).find((f) => keyOf(f) === key);
  if (known) probe.ok(`opportunity custom field ${key}: ${known.id}`);
  else await missingField(probe, { key, dataType: 'TEXT', model: 'opportunity' }, fix);
}

/** A field the location lacks: said, or created with `fix`. */
async function missingField(probe: Probe, field: Wanted, fix: boolean): Promise<void> {
  const what = `${field.model === 'opportunity' ? 'opportunity ' : ''}custom field ${field.key}`;
  const kind = field.dataType === 'LARGE_TEXT' ? 'multi-line' : 'single-line';
  const where = field.model === 'opportunity' ? "opportunities' " : '';
  if (!fix) {
    probe.fix(
      `${what} is missing: run claimsite leads check --fix, or create a ${kind} text field named ${field.key} in the sub-account's ${where}custom fields`,
    );
    return;
  }
  const made = await probe.call('POST', `/locations/${probe.location}/customFields`, {
    name: field.key,
    dataType: field.dataType,
    model: field.model,
  });
  const created = (made.json as { customField?: LocationField } | null)?.customField;
  if (made.status === 200 || made.status === 201) {
    if (created && keyOf(created) === field.key) probe.ok(`${what}: created, ${created.id}`);
    else
      probe.fix(
        `${what} was created with the key ${created?.fieldKey ?? '(none given)'}: rename its key to ${field.model}.${field.key} in the sub-account's custom fields`,
      );
  } else if (probe.scopeLacked(made))
    probe.fix(
      `${what} is missing, and GHL_TOKEN lacks the scope locations/customFields.write to create it: add the scope, or create a text field named ${field.key} by hand`,
    );
  else probe.fix(`${what} could not be created (${probe.said(made)})`);
}
