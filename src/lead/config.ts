import { basePathOf, links } from '../urls.js';
import { SITEVERIFY_URL } from './bots.js';
import { TrustedProxies } from './client-ip.js';
import { checkLeadValues, DEFAULT_LEAD_VALUES, type LeadValues } from './lead-values.js';
import { ESTIMATED_VALUES } from './rules.js';

/** Everything the lead endpoint needs, from the environment only: never from data/ or dist/. */
export interface LeadConfig {
  api: 'v1' | 'v2';
  /** Private Integration token (v2) or API key (v1); empty: every lead goes to the outbox. */
  token: string;
  locationId: string;
  baseUrl: string;
  /** Custom field key to the location's field id, where the CRM wants ids (v2). */
  customFieldIds: Record<string, string>;
  /** Each delivered lead becomes an opportunity in this pipeline and stage (v2), when set. */
  pipelineId?: string;
  pipelineStageId?: string;
  /** Each submission enrols its contact in this workflow (v2), when set. */
  workflowId?: string;
  /** What a lead is worth by its loss range: the opportunity's value (LEAD_VALUES). */
  leadValues: LeadValues;
  /**
   * The SQLite database of a Node host (LEAD_OUTBOX_PATH); an older version's `leads.jsonl`
   * names the folder it is made in.
   */
  outboxPath: string;
  /** A PostgreSQL server several instances share (LEAD_STORE_URL), instead of SQLite. */
  storeUrl?: string;
  /** New leads are refused (the visitor is given the phone number) while this many wait. */
  maxWaiting: number;
  /** Dead letters are deleted this many days after the CRM refused them. */
  deadLetterDays: number;
  /**
   * Origins allowed to post: SITE_ORIGIN, else SITE_URL's, else the caller's default (serve's
   * own addresses and the built site's). Empty: only requests from the endpoint's own origin.
   */
  allowedOrigins: string[];
  /** Proxies whose X-Forwarded-For names the client (LEAD_TRUSTED_PROXIES); none by default. */
  trustedProxies: TrustedProxies;
  /** How often a running endpoint tries waiting leads again, at the least. */
  retryIntervalMs: number;
  /** Where alerts are posted; none when unset. */
  alertWebhook?: string;
  /** A lead waiting longer than this is told to the owner. */
  alertAfterMs: number;
  /** Per client: this many submissions in `rateWindowMs`. */
  rateLimit: number;
  rateWindowMs: number;
  /** Where the no-JS form is sent after a rejected submission. */
  errorPage: string;
  /**
   * The folder the site is served from (/myrepo for https://user.github.io/myrepo/), which the
   * pages it sends a visitor to are under: SITE_URL's path, else the caller's default; `` at a
   * domain's root.
   */
  basePath: string;
  /** The time trap: a form sent sooner than this after its page opened is a bot's (0: off). */
  minFillMs: number;
  /** Cloudflare Turnstile's secret key: when set, every submission's token is checked. */
  turnstileSecret?: string;
  /** Where tokens are checked: Cloudflare's siteverify (another address for tests only). */
  turnstileVerifyUrl: string;
}

const DEFAULT_BASE_URL = {
  v1: 'https://rest.gohighlevel.com',
  v2: 'https://services.leadconnectorhq.com',
};

export const DEFAULT_OUTBOX_PATH = '.outbox/leads.db';

export class ConfigError extends Error {}

export function configFromEnv(
  env: NodeJS.ProcessEnv = process.env,
  defaults: { siteOrigin?: string; basePath?: string } = {},
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
  const pipeline = pipelineOf(env);
  const origins = (env.SITE_ORIGIN ?? originOf(env.SITE_URL) ?? defaults.siteOrigin ?? '')
    .split(',')
    .map((o) => o.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  const webhook = env.LEAD_ALERT_WEBHOOK?.trim();
  if (webhook && !/^https?:\/\//.test(webhook))
    throw new ConfigError('LEAD_ALERT_WEBHOOK must be an http(s) URL');
  const storeUrl = env.LEAD_STORE_URL?.trim();
  if (storeUrl && !/^postgres(ql)?:\/\//.test(storeUrl))
    throw new ConfigError(
      'LEAD_STORE_URL must be a PostgreSQL URL, such as postgresql://user:password@host:5432/database',
    );
  let trustedProxies: TrustedProxies;
  try {
    trustedProxies = new TrustedProxies(env.LEAD_TRUSTED_PROXIES ?? '');
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  return {
    api,
    token,
    locationId,
    baseUrl: (env.GHL_BASE_URL ?? DEFAULT_BASE_URL[api]).replace(/\/+$/, ''),
    customFieldIds,
    ...pipeline,
    leadValues: leadValuesOf(env.LEAD_VALUES),
    outboxPath: env.LEAD_OUTBOX_PATH?.trim() || DEFAULT_OUTBOX_PATH,
    ...(storeUrl ? { storeUrl } : {}),
    maxWaiting: positive(env, 'LEAD_MAX_WAITING', 50_000),
    deadLetterDays: positive(env, 'LEAD_DEAD_LETTER_DAYS', 30),
    allowedOrigins: origins,
    trustedProxies,
    retryIntervalMs: positive(env, 'LEAD_RETRY_INTERVAL_MS', 60_000),
    ...(webhook ? { alertWebhook: webhook } : {}),
    alertAfterMs: positive(env, 'LEAD_ALERT_AFTER_MS', 15 * 60_000),
    rateLimit: positive(env, 'LEAD_RATE_LIMIT', 5),
    rateWindowMs: positive(env, 'LEAD_RATE_WINDOW_MS', 60_000),
    errorPage: links.page('form-error'),
    basePath: folderOf(env.SITE_URL) ?? defaults.basePath ?? '',
    minFillMs: atLeastZero(env, 'LEAD_MIN_FILL_MS', 3000),
    ...(env.TURNSTILE_SECRET?.trim() ? { turnstileSecret: env.TURNSTILE_SECRET.trim() } : {}),
    turnstileVerifyUrl: env.TURNSTILE_VERIFY_URL?.trim() || SITEVERIFY_URL,
  };
}

/** GHL_PIPELINE_ID and GHL_PIPELINE_STAGE_ID go together; GHL_WORKFLOW_ID goes alone. */
function pipelineOf(env: NodeJS.ProcessEnv) {
  const pipelineId = env.GHL_PIPELINE_ID?.trim();
  const pipelineStageId = env.GHL_PIPELINE_STAGE_ID?.trim();
  const workflowId = env.GHL_WORKFLOW_ID?.trim();
  if (Boolean(pipelineId) !== Boolean(pipelineStageId))
    throw new ConfigError(
      pipelineId
        ? 'GHL_PIPELINE_STAGE_ID is required with GHL_PIPELINE_ID: the stage new leads start in'
        : 'GHL_PIPELINE_ID is required with GHL_PIPELINE_STAGE_ID: the pipeline the stage is in',
    );
  return {
    ...(pipelineId && pipelineStageId ? { pipelineId, pipelineStageId } : {}),
    ...(workflowId ? { workflowId } : {}),
  };
}

function leadValuesOf(raw: string | undefined): LeadValues {
  if (!raw?.trim()) return DEFAULT_LEAD_VALUES;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(
      'LEAD_VALUES must be a JSON object of loss range to value in dollars, such as {"100k_250k": 17500}',
    );
  }
  const checked = checkLeadValues(parsed, ESTIMATED_VALUES);
  if ('error' in checked) throw new ConfigError(`LEAD_VALUES ${checked.error}`);
  // The owner's entries over the defaults: a range they leave out keeps its default.
  return { ...DEFAULT_LEAD_VALUES, ...checked.table };
}

function atLeastZero(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new ConfigError(`${name} must be a number, 0 or more`);
  return n;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n <= 0) throw new ConfigError(`${name} must be a number above 0`);
  return n;
}

/** The folder of a site's URL (`/myrepo`, or `` for none), or undefined for no URL. */
function folderOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return basePathOf(url);
  } catch {
    return undefined;
  }
}

/** The origin of a URL, or undefined for none or one that is not a URL. */
function originOf(url: string | undefined): string | undefined {
  if (!url) return undefined;
  try {
    return new URL(url).origin;
  } catch {
    return undefined;
  }
}
