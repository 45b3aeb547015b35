import type { Log } from './log.js';

/** A custom field as `GET /locations/{locationId}/customFields` lists it (CustomFieldSchema). */
export interface LocationField {
  id: string;
  name?: string;
  /** `contact.<key>` (`opportunity.<key>`): GoHighLevel makes it from the field's name. */
  fieldKey?: string;
  dataType?: string;
}

/** The key a lead uses for a location's field: its fieldKey without the model's prefix. */
export const keyOf = (field: LocationField) =>
  field.fieldKey?.replace(/^(contact|opportunity)\./, '');

/** A listing that failed or missed a key is not asked again sooner than this. */
const REFRESH_AFTER_MS = 60_000;

/**
 * The location's own ids for the custom field keys a lead fills. GoHighLevel's typed custom
 * field schemas require `id` and ignore a field sent by key alone, so keys are resolved from the
 * location's listing: read once and kept; read again once when a lead needs a key it lacks (a
 * field created since), and for a key still missing not again before `refreshAfterMs`. An id given
 * in GHL_CUSTOM_FIELD_IDS wins. A key the location has no field for is left out of the contact
 * (the note still has it) and logged.
 */
export class CustomFieldIds {
  private byKey: Map<string, string> | null = null;
  /** When a listing last looked for each key it did not find. */
  private readonly lookedFor = new Map<string, number>();

  constructor(
    private readonly list: (deadline: number) => Promise<LocationField[]>,
    private readonly fixed: Readonly<Record<string, string>>,
    private readonly log: Log,
    private readonly refreshAfterMs = REFRESH_AFTER_MS,
  ) {}

  /** The ids of the keys the location has; the others are absent from the answer. */
  async resolve(keys: readonly string[], deadline: number): Promise<Record<string, string>> {
    const now = Date.now();
    const unknown = keys.filter((k) => !this.fixed[k] && !this.byKey?.has(k));
    const due = unknown.filter(
      (k) => now - (this.lookedFor.get(k) ?? Number.NEGATIVE_INFINITY) >= this.refreshAfterMs,
    );
    if (this.byKey === null || due.length > 0) {
      try {
        const fields = await this.list(deadline);
        this.byKey = new Map();
        for (const f of fields) {
          const key = keyOf(f);
          if (key && f.id) this.byKey.set(key, f.id);
        }
        const still = unknown.filter((k) => !this.byKey?.has(k));
        for (const k of still) this.lookedFor.set(k, now);
        if (still.length > 0)
          this.log('custom fields missing in the location', {
            fields: still,
            fix: 'claimsite leads check --fix',
          });
      } catch (err) {
        // Never listed, and the CRM failing for now: the delivery fails too, to be tried again
        // with the fields. Refused (the token lacks the scope), or a refresh: the contact still
        // goes, with what is known (its note holds every answer), and the fields wait for a fix.
        if (this.byKey === null && (err as { kind?: string }).kind === 'transient') throw err;
        this.byKey ??= new Map();
        for (const k of unknown) this.lookedFor.set(k, now);
        this.log('custom fields not listed', { error: (err as Error).message });
      }
    }
    const ids: Record<string, string> = {};
    for (const k of keys) {
      const id = this.fixed[k] ?? this.byKey?.get(k);
      if (id) ids[k] = id;
    }
    return ids;
  }
}
