import { links } from '../urls.js';

/** Everything the lead endpoint needs, from the environment only: never from data/ or dist/. */
export interface LeadConfig {
  api: 'v1' | 'v2';
  /** Private Integration token (v2) or API key (v1); empty: every lead goes to the outbox. */
  token: string;
  locationId: string;
  baseUrl: string;
  /** Custom field key to the location's field id, where the CRM wants ids (v2). */
  customFieldIds: Record<string, string>;
  outboxPath: string;
  /** Origins allowed to post (the site's own); empty allows any (local previews). */
  allowedOrigins: string[];
  /** Per client: this many submissions in `rateWindowMs`. */
  rateLimit: number;
  rateWindowMs: number;
  /** Where the no-JS form is sent after a rejected submission. */
  errorPage: string;
}

export const DEFAULT_BASE_URL = {
  v1: 'https://rest.gohighlevel.com',
  v2: 'https://services.leadconnectorhq.com',
};

export class ConfigError extends Error {}

export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  defaults: { siteOrigin?: string } = {},
): LeadConfig {
  const api = (env.GHL_API_VERSION ?? 'v2').toLowerCase();
  if (api !== 'v1' && api !== 'v2')
    throw new ConfigError(`GHL_API_VERSION must be v1 or v2, not "${env.GHL_API_VERSION}"`);
  const token = env.GHL_TOKEN?.trim() ?? '';
  const locationId = env.GHL_LOCATION_ID?.trim() ?? '';
  if (api === 'v2' && token && !locationId)
    throw new ConfigError('GHL_LOCATION_ID is required with a v2 token');
  let customFieldIds: Record<string, string> = {};
  if (env.GHL_CUSTOM_FIELD_IDS) {
    try {
      customFieldIds = JSON.parse(env.GHL_CUSTOM_FIELD_IDS);
    } catch {
      throw new ConfigError('GHL_CUSTOM_FIELD_IDS must be a JSON object of field key to field id');
    }
  }
  const origins = (env.SITE_ORIGIN ?? defaults.siteOrigin ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  return {
    api,
    token,
    locationId,
    baseUrl: (env.GHL_BASE_URL ?? DEFAULT_BASE_URL[api]).replace(/\/+$/, ''),
    customFieldIds,
    outboxPath: env.LEAD_OUTBOX_PATH ?? '.outbox/leads.jsonl',
    allowedOrigins: origins,
    rateLimit: Number(env.LEAD_RATE_LIMIT ?? 5),
    rateWindowMs: Number(env.LEAD_RATE_WINDOW_MS ?? 60_000),
    errorPage: links.page('form-error'),
  };
}
