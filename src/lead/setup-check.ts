import { SITEVERIFY_URL } from './bots.js';
import { ConfigError, configFromEnv, type LeadConfig } from './config.js';
import { checkFields } from './setup-check-fields.js';
import { checkPipeline, checkWorkflow } from './setup-check-pipeline.js';

/** One finding: what was checked, and whether it is ready or what to fix. */
interface Finding {
  ok: boolean;
  text: string;
}

/** A refusal because the token lacks a route's scope, in GoHighLevel's words. */
const SCOPE_REFUSED = /not authorized for this scope/i;

export interface Answer {
  status: number;
  message: string;
  json: unknown;
}

/** What each part of the check is given: the configuration, the CRM, and where findings go. */
export interface Probe {
  config: LeadConfig;
  call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Answer>;
  ok(text: string): void;
  fix(text: string): void;
  /** An answer as words: "HTTP 403: ...". */
  said(a: Answer): string;
  /** The token lacks the route's scope. */
  scopeLacked(a: Answer): boolean;
  /** Says whether the token has a scope, from an answer `allowed` judges. */
  scope(name: string, why: string, a: Answer, allowed: (a: Answer) => boolean): void;
  /** The location's id, as a path segment. */
  location: string;
}

/**
 * Checks, with the environment the lead endpoint would use, that GoHighLevel takes its leads:
 * the token, the location, each scope the endpoint needs, every custom field a lead fills, the
 * pipeline, stage and workflow it is given (and, with TURNSTILE_SECRET set, that Cloudflare
 * knows the secret). It changes nothing: it reads, and asks for writes GoHighLevel refuses before
 * acting (a contact upsert and an opportunity without their required fields) only to see whether
 * the token may write. With `fix`, it creates the custom fields the location lacks, and only those.
 */
export async function checkCrmSetup(
  env: NodeJS.ProcessEnv,
  options: { fix?: boolean } = {},
): Promise<Finding[]> {
  const found: Finding[] = [];
  const config = usableConfig(env, (text) => found.push({ ok: false, text }));
  if (!config) return found;
  const probe = probeOf(config, found);
  // The location's custom fields: the token, the location and a scope in one read.
  let listing: Answer;
  try {
    listing = await probe.call('GET', `/locations/${probe.location}/customFields?model=contact`);
  } catch (err) {
    probe.fix(`GHL_BASE_URL ${config.baseUrl} did not answer: ${(err as Error).message}`);
    return found;
  }
  if (!accessible(probe, listing)) return found;
  probe.ok('GHL_TOKEN is accepted');
  await checkContactScopes(probe, listing);
  if (listing.status === 200) await checkFields(probe, listing, Boolean(options.fix));
  await checkPipeline(probe, Boolean(options.fix));
  await checkWorkflow(probe);
  probe.ok(
    `LEAD_VALUES: ${Object.entries(config.leadValues)
      .map(([range, value]) => `${range} $${value.toLocaleString('en-CA')}`)
      .join(', ')} (the opportunity's value by loss range)`,
  );
  if (config.turnstileSecret) await checkTurnstile(config, probe.ok, probe.fix);
  return found;
}

/** The configuration, or null after saying what keeps it from being checked at all. */
function usableConfig(env: NodeJS.ProcessEnv, fix: (text: string) => void): LeadConfig | null {
  let config: LeadConfig;
  try {
    config = configFromEnv(env);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    fix(err.message);
    return null;
  }
  if (config.api === 'v1') {
    fix(
      'GHL_API_VERSION is v1: GoHighLevel ended API v1, which has no scopes or custom field listing to check. Use v2 (unset GHL_API_VERSION) with a Private Integration token and GHL_LOCATION_ID',
    );
    return null;
  }
  if (!config.token) {
    fix(
      "GHL_TOKEN is not set: every lead would wait. Make a Private Integration token in the sub-account's settings and set GHL_TOKEN",
    );
    return null;
  }
  return config;
}

function probeOf(config: LeadConfig, found: Finding[]): Probe {
  const said = (a: Answer) => `HTTP ${a.status}${a.message ? `: ${a.message}` : ''}`;
  const scopeLacked = (a: Answer) => a.status === 401 && SCOPE_REFUSED.test(a.message);
  const ok = (text: string) => found.push({ ok: true, text });
  const fix = (text: string) => found.push({ ok: false, text });
  return {
    config,
    location: encodeURIComponent(config.locationId),
    call: (method, path, body) => callCrm(config, method, path, body),
    ok,
    fix,
    said,
    scopeLacked,
    scope(name, why, a, allowed) {
      if (scopeLacked(a))
        fix(
          `GHL_TOKEN lacks the scope ${name} (${why}): add it to the Private Integration, which gives a new token`,
        );
      else if (a.status === 403)
        fix(
          `GHL_LOCATION_ID ${config.locationId}: the token may not use this location (${said(a)})`,
        );
      else if (allowed(a)) ok(`GHL_TOKEN has the scope ${name}`);
      else fix(`could not tell whether GHL_TOKEN has the scope ${name} (${said(a)})`);
    },
  };
}

async function callCrm(
  config: LeadConfig,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<Answer> {
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
}

/** Whether the token and the location are usable at all; says which is not. */
function accessible(probe: Probe, listing: Answer): boolean {
  const { config, said } = probe;
  if ((listing.status === 401 || listing.status === 403) && !probe.scopeLacked(listing)) {
    if (listing.status === 401)
      probe.fix(
        `GHL_TOKEN is refused by GoHighLevel (${said(listing)}): set a valid Private Integration token`,
      );
    else
      probe.fix(
        `GHL_LOCATION_ID ${config.locationId} is not a location this token may use (${said(listing)}): set the id of the sub-account the token was made in`,
      );
    return false;
  }
  if (listing.status === 400 || listing.status === 404) {
    probe.fix(
      `GHL_LOCATION_ID ${config.locationId} is not a location GoHighLevel knows (${said(listing)})`,
    );
    return false;
  }
  return true;
}

/** The contacts' scopes: to look a person up and find a note, and to write the contact. */
async function checkContactScopes(probe: Probe, listing: Answer): Promise<void> {
  const { config } = probe;
  const search = await probe.call('POST', '/contacts/search', {
    locationId: config.locationId,
    pageLimit: 1,
  });
  probe.scope(
    'contacts.readonly',
    'to find a returning contact, and a note an interrupted delivery may have added',
    search,
    (a) => a.status === 200,
  );
  if (search.status === 200 || listing.status === 200)
    probe.ok(`GHL_LOCATION_ID ${config.locationId} is a location the token may use`);
  // No location and nothing to write: refused as invalid (400, 422) when the scope is there.
  const write = await probe.call('POST', '/contacts/upsert', {});
  probe.scope(
    'contacts.write',
    'to write the contact, its tags, its note and its workflow enrolment',
    write,
    (a) => a.status === 400 || a.status === 422,
  );
  probe.scope(
    'locations/customFields.readonly',
    "to send each custom field by the location's id",
    listing,
    (a) => a.status === 200,
  );
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
