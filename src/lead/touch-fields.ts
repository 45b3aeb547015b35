import { sourceOf, TOUCH_FIELDS, type Touch } from './attribution.js';

/**
 * A contact's first and last touch as custom fields: `first_*` describe the visit that first
 * brought the person (the first paid click the browser kept, with consent, or else the visit
 * that sent the lead) and are written once, to a contact that has none; `last_*` describe the
 * visit of the latest lead and are written with every lead, each of them, so that no value of an
 * earlier visit is left beside a later one (a visit without a campaign reads "(none)").
 */
const PARTS = ['source', ...TOUCH_FIELDS, 'at'] as const;
export const FIRST_FIELDS = PARTS.map((p) => `first_${p}`);
export const LAST_FIELDS = PARTS.map((p) => `last_${p}`);

/** What a touch says of a part: its source as people read it, or the field's own value. */
const partOf = (touch: Touch | undefined, part: (typeof PARTS)[number]) =>
  part === 'source' ? sourceOf(touch) : touch?.[part];

/** The first touch's fields that have a value. */
export function firstFields(touch: Touch | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of PARTS) {
    const v = partOf(touch, p);
    if (v) out[`first_${p}`] = v;
  }
  return out;
}

/** Every last-touch field: the latest visit's value, or "(none)" where it had none. */
export function lastFields(touch: Touch | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of PARTS) out[`last_${p}`] = partOf(touch, p) || '(none)';
  return out;
}
