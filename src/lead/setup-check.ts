import { SITEVERIFY_URL } from './bots.js';
import { ConfigError, configFromEnv, type LeadConfig } from './config.js';
import { keyOf, type LocationField } from './custom-fields.js';
import { LEAD_CUSTOM_FIELDS } from './payload.js';

/** One finding: what was checked, and whether it is ready or what to fix. */
export interface Finding {
  ok: boolean;
  text: string;
}

/** A refusal because the token lacks a route's scope, in GoHighLevel's words. */
const SCOPE_REFUSED = /not authorized for this scope/i;

interface Answer {
  status: number;
  message: string;
  json: unknown;
}

/**
 * Checks, with the environment the lead endpoint would use, that GoHighLevel takes its leads:
 * the token, the location, each scope the endpoint needs, and every custom field a lead fills
 * (and, with TURNSTILE_SECRET set, that Cloudflare knows the secret). It changes nothing: it
 * reads the location's custom fields and contacts, and asks for a contact write that GoHighLevel
 * refuses before acting (an upsert without a location) only to see whether the token may write.
 * With `fix`, it creates the custom fields the location lacks, and only those.
 */
export async function checkCrmSetup(
  env: NodeJS.ProcessEnv,
  options: { fix?: boolean } = {},
): Promise<Finding[]> {
  const found: Finding[] = [];
  const ok = (text: string) => found.push({ ok: true, text });
  const fix = (text: string) => found.push({ ok: false, text });
  let config: LeadConfig;
  try {
    config = configFromEnv(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    fix(err.message);
    return found;
  }
  if (config.api === 'v1') {
    fix(
      'GHL_API_VERSION is v1: GoHighLevel ended API v1, which has no scopes or custom field listing to check. Use v2 (unset GHL_API_VERSION) with a Private Integration token and GHL_LOCATION_ID',
    );
    return found;
  }
  if (!config.token) {
    fix(
      "GHL_TOKEN is not set: every lead would wait. Make a Private Integration token in the sub-account's settings and set GHL_TOKEN",
    );
    return found;
  }

  const call = async (method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer> => {
    const res = await fetch(`${config.baseUrl}${path}`, {
      method,
      headers: {
        Authorization: `Bearer ${config.token}`,
        Version: '2021-07-28',
        Accept: 'application/json',
        'Content-Type': 'application/json',
      },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(15_000),
    });
    const text = await res.text();
    let json: unknown = null;
    try {
      json = JSON.parse(text);
    } catch {
      // Judged by the status alone.
    }
    const m = (json as { message?: unknown } | null)?.message;
    const message = Array.isArray(m) ? m.join('; ') : typeof m === 'string' ? m : '';
    return { status: res.status, message, json };
  };
  const said = (a: Answer) => `HTTP ${a.status}${a.message ? `: ${a.message}` : ''}`;
  const location = encodeURIComponent(config.locationId);

  // The location's custom fields: the token, the location and a scope in one read.
  let listing: Answer;
  try {
    listing = await call('GET', `/locations/${location}/customFields?model=contact`);
  } catch (err) {
    fix(`GHL_BASE_URL ${config.baseUrl} did not answer: ${(err as Error).message}`);
    return found;
  }
  const scopeLacked = (a: Answer) => a.status === 401 && SCOPE_REFUSED.test(a.message);
  if ((listing.status === 401 || listing.status === 403) && !scopeLacked(listing)) {
    if (listing.status === 401) {
      fix(
        `GHL_TOKEN is refused by GoHighLevel (${said(listing)}): set a valid Private Integration token`,
      );
    } else {
      fix(
        `GHL_LOCATION_ID ${config.locationId} is not a location this token may use (${said(listing)}): set the id of the sub-account the token was made in`,
      );
    }
    return found;
  }
  if (listing.status === 400 || listing.status === 404) {
    fix(
      `GHL_LOCATION_ID ${config.locationId} is not a location GoHighLevel knows (${said(listing)})`,
    );
    return found;
  }
  ok('GHL_TOKEN is accepted');

  const scope = (name: string, why: string, a: Answer, allowed: (a: Answer) => boolean) => {
    if (scopeLacked(a))
      fix(
        `GHL_TOKEN lacks the scope ${name} (${why}): add it to the Private Integration, which gives a new token`,
      );
    else if (a.status === 403)
      fix(`GHL_LOCATION_ID ${config.locationId}: the token may not use this location (${said(a)})`);
    else if (allowed(a)) ok(`GHL_TOKEN has the scope ${name}`);
    else fix(`could not tell whether GHL_TOKEN has the scope ${name} (${said(a)})`);
  };
  const search = await call('POST', '/contacts/search', {
    locationId: config.locationId,
    pageLimit: 1,
  });
  scope(
    'contacts.readonly',
    'to find a note an interrupted delivery may have added',
    search,
    (a) => a.status === 200,
  );
  if (search.status === 200 || listing.status === 200)
    ok(`GHL_LOCATION_ID ${config.locationId} is a location the token may use`);
  // No location and nothing to write: refused as invalid (400, 422) when the scope is there.
  const write = await call('POST', '/contacts/upsert', {});
  scope(
    'contacts.write',
    'to write the contact, its tags and its note',
    write,
    (a) => a.status === 400 || a.status === 422,
  );
  scope(
    'locations/customFields.readonly',
    "to send each custom field by the location's id",
    listing,
    (a) => a.status === 200,
  );

  if (listing.status === 200) {
    const fields = ((listing.json as { customFields?: LocationField[] }).customFields ?? []).filter(
      (f) => f.id,
    );
    const byKey = new Map(fields.map((f) => [keyOf(f), f]));
    const ids = new Set(fields.map((f) => f.id));
    const missing: Array<(typeof LEAD_CUSTOM_FIELDS)[number]> = [];
    for (const field of LEAD_CUSTOM_FIELDS) {
      const mapped = config.customFieldIds[field.key];
      if (mapped !== undefined) {
        if (ids.has(mapped)) ok(`custom field ${field.key}: ${mapped}, from GHL_CUSTOM_FIELD_IDS`);
        else
          fix(
            `GHL_CUSTOM_FIELD_IDS maps ${field.key} to ${mapped}, which is no custom field of the location: remove it from the map, or give the field's id`,
          );
        continue;
      }
      const known = byKey.get(field.key);
      if (known) ok(`custom field ${field.key}: ${known.id}`);
      else missing.push(field);
    }
    for (const key of Object.keys(config.customFieldIds))
      if (!LEAD_CUSTOM_FIELDS.some((f) => f.key === key))
        fix(`GHL_CUSTOM_FIELD_IDS names ${key}, which no lead fills: remove it from the map`);
    for (const field of missing) {
      if (!options.fix) {
        fix(
          `custom field ${field.key} is missing: run claimsite leads check --fix, or create a ${field.dataType === 'LARGE_TEXT' ? 'multi-line' : 'single-line'} text field named ${field.key} in the sub-account's custom fields`,
        );
        continue;
      }
      const made = await call('POST', `/locations/${location}/customFields`, {
        name: field.key,
        dataType: field.dataType,
        model: 'contact',
      });
      const created = (made.json as { customField?: LocationField } | null)?.customField;
      if (made.status === 200 || made.status === 201) {
        if (created && keyOf(created) === field.key)
          ok(`custom field ${field.key}: created, ${created.id}`);
        else
          fix(
            `custom field ${field.key} was created with the key ${created?.fieldKey ?? '(none given)'}: rename its key to contact.${field.key} in the sub-account's custom fields`,
          );
      } else if (scopeLacked(made))
        fix(
          `custom field ${field.key} is missing, and GHL_TOKEN lacks the scope locations/customFields.write to create it: add the scope, or create a text field named ${field.key} by hand`,
        );
      else fix(`custom field ${field.key} could not be created (${said(made)})`);
    }
  }

  if (config.turnstileSecret) await checkTurnstile(config, ok, fix);
  return found;
}

/** Cloudflare answers a made-up token with invalid-input-response, and a bad secret so. */
async function checkTurnstile(
  config: LeadConfig,
  ok: (text: string) => void,
  fix: (text: string) => void,
) {
  try {
    const res = await fetch(config.turnstileVerifyUrl, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        secret: config.turnstileSecret ?? '',
        response: 'claimsite-leads-check',
      }),
      signal: AbortSignal.timeout(15_000),
    });
    const codes = ((await res.json()) as { 'error-codes'?: string[] })['error-codes'] ?? [];
    if (codes.some((c) => c.includes('secret')))
      fix(`TURNSTILE_SECRET is refused by Cloudflare (${codes.join(', ')})`);
    else ok('TURNSTILE_SECRET is known to Cloudflare');
  } catch (err) {
    fix(
      `TURNSTILE_SECRET could not be checked: ${config.turnstileVerifyUrl === SITEVERIFY_URL ? 'Cloudflare' : config.turnstileVerifyUrl} did not answer (${(err as Error).message})`,
    );
  }
}
