import { randomUUID } from 'node:crypto';
import { langOfPath } from '../i18n/lang.js';
import { LEAD_PAGES, links } from '../urls.js';
import { type Alert, createAlerts } from './alerts.js';
import { tooFast, turnstileTokenOf, verifyTurnstile } from './bots.js';
import type { LeadConfig } from './config.js';
import { type CrmClient, createCrmClient } from './crm.js';
import { type Deliverer, deliverOrKeep, type Outcome, startRetrying } from './delivery.js';
import { healthOf, StoreHealth } from './health.js';
import { jsonLog, type Log } from './log.js';
import { type RateLimit, RateLimiter } from './rate-limit.js';
import { shortReference } from './reference.js';
import { MAX_BODY_BYTES } from './rules.js';
import { fromFormData, type Lead, leadSchema, reason } from './schema.js';
import type { LeadStore } from './store.js';
import { alertStoreFailure } from './store-failure.js';

/**
 * The confirmation's query for a form the time trap caught, made as a lead's is (its city, its
 * reference, its damage), so the answer tells a bot nothing.
 */
function trappedQuery(raw: unknown) {
  const r = (raw ?? {}) as { city?: unknown; submissionId?: unknown; damageTypes?: unknown };
  const types = Array.isArray(r.damageTypes) ? r.damageTypes : [r.damageTypes ?? ''];
  return {
    city: String(r.city ?? '').slice(0, 100),
    ref: shortReference(String(r.submissionId ?? '')),
    damage: types.map(String).join().slice(0, 100),
  };
}

export interface LeadHandlerOptions {
  config: LeadConfig;
  crm?: CrmClient;
  /**
   * Where leads are kept. A Node host's is the configured one (`withConfiguredStore`, in
   * open-store.ts: SQLite, or LEAD_STORE_URL's server); it is not opened here, so that a
   * platform's bundle (Netlify's function) holds no database driver.
   */
  store: LeadStore;
  log?: Log;
  /** How alerts are sent; by default to LEAD_ALERT_WEBHOOK. */
  alert?: Alert;
  /** The per-visitor limit; by default counted in this process. */
  rateLimit?: RateLimit;
}

/** What the adapter knows about the connection. */
export interface ClientInfo {
  /** The address the request came from: a proxy's, when there is one. */
  clientIp?: string;
  /** The platform itself names the client (Netlify's context.ip): no header is consulted. */
  fromPlatform?: boolean;
}

export type LeadHandler = (request: Request, client?: ClientInfo) => Promise<Response>;

/** The endpoint answers the browser within this, whatever the CRM does (the browser waits 15 s). */
const ANSWER_WITHIN_MS = 8000;
/** Of which the CRM gets all but a second: keeping what it did not take is the rest. */
const CRM_WITHIN_MS = ANSWER_WITHIN_MS - 1000;

export interface LeadService {
  handle: LeadHandler;
  /** Everything that delivers leads: the drain and the scheduled retries use it too. */
  deliverer: Deliverer;
  /** Tries the waiting leads again every LEAD_RETRY_INTERVAL_MS while the process runs. */
  startRetrying(): { stop(): Promise<void> };
  /** The health route's answer: whether a lead would be accepted now, and how many wait. */
  health(): Promise<{ status: number; body: object }>;
}

/**
 * The lead endpoint and what delivers its leads. The endpoint is a portable Fetch-API handler:
 * it checks origin, type, size and rate, validates with the form's schema, delivers to the CRM
 * within its time, and keeps whatever it could not deliver in the store: an accepted lead is
 * never lost, and never delivered twice.
 */
export function createLeadService(options: LeadHandlerOptions): LeadService {
  const { config } = options;
  const log = options.log ?? jsonLog;
  const { store } = options;
  const alert = options.alert ?? createAlerts(config.alertWebhook, store, log);
  const deliverer: Deliverer = {
    store,
    crm: options.crm ?? (config.token ? createCrmClient(config, log) : undefined),
    alert,
    log,
    // Every store failure is told to the owner at once, as it is found.
    health: new StoreHealth(store, 1000, (err) => {
      void alertStoreFailure(alert, store.where, err, true);
    }),
    retryIntervalMs: config.retryIntervalMs,
    alertAfterMs: config.alertAfterMs,
    maxWaiting: config.maxWaiting,
    deadLetterDays: config.deadLetterDays,
  };
  return {
    handle: createHandler(
      config,
      deliverer,
      log,
      options.rateLimit ?? new RateLimiter(config.rateLimit, config.rateWindowMs),
    ),
    deliverer,
    startRetrying: () => startRetrying(deliverer),
    health: () => healthOf(deliverer),
  };
}

class Reject extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

async function readLimited(request: Request, limit: number): Promise<string> {
  const declared = Number(request.headers.get('content-length'));
  if (declared > limit) throw new Reject(413, `body is larger than ${limit} bytes`);
  if (!request.body) return '';
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      await reader.cancel();
      throw new Reject(413, `body is larger than ${limit} bytes`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** The endpoint itself: see createLeadService. */
function createHandler(
  config: LeadConfig,
  deliverer: Deliverer,
  log: Log,
  limiter: RateLimit,
): LeadHandler {
  const deliverOnce = oncePerSubmission(deliverer);

  return async (request, client = {}) => {
    const cors = corsHeaders(request, config.allowedOrigins);
    if (request.method === 'OPTIONS') return preflight(request, cors);
    // A form posted without JavaScript from an allowed other origin goes back to that site: a
    // relative address would land on the endpoint's own host. Its pages are under its folder.
    const site = (cors['Access-Control-Allow-Origin'] ?? '') + config.basePath;
    const type =
      (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const isForm = type === 'application/x-www-form-urlencoded';
    // The visitor is answered in the page's language: from the form's page field once it is
    // read, until then from the page that posted it.
    let lang = langOfPath(refererPath(request, config.basePath));
    const errorPage = (l: typeof lang) => (l === 'en' ? config.errorPage : LEAD_PAGES[l].error);
    try {
      if (request.method !== 'POST') throw new Reject(405, 'use POST', { Allow: 'POST' });
      checkOrigin(request, config.allowedOrigins);
      if (!isForm && type !== 'application/json')
        throw new Reject(415, 'send application/json or a form');
      const visitor = visitorOf(request, client, config);
      const wait = await limiter.take(visitor);
      if (wait !== null)
        throw new Reject(429, 'too many submissions', {
          'Retry-After': String(Math.ceil(wait / 1000)),
        });
      const raw = await readSubmission(request, isForm);
      if (typeof raw === 'object' && raw && 'page' in raw && typeof raw.page === 'string')
        lang = langOfPath(raw.page);
      // Sent faster than a person can: answered as a success, so the bot learns nothing, and
      // nothing of it is kept or logged but that it came.
      if (tooFast(raw, config.minFillMs)) {
        log('submission ignored', { reason: 'time trap' });
        const outcome = deliverer.crm ? 'delivered' : 'queued';
        return isForm
          ? redirect(site + links.withQuery(LEAD_PAGES[lang].confirmation, trappedQuery(raw)))
          : json(outcome === 'delivered' ? 200 : 202, { ok: true, status: outcome }, cors);
      }
      const lead = await acceptLead(raw, visitor, config, log);
      let outcome: Outcome;
      if (lead.website.trim()) {
        // A bot filled the field people never see: it is answered exactly as a lead the CRM
        // took, so it learns nothing, and nothing of it is kept or logged but that it came.
        log('submission ignored', { reason: 'honeypot' });
        outcome = deliverer.crm ? 'delivered' : 'queued';
      } else outcome = await deliverOnce(lead);
      if (isForm)
        return redirect(site + links.withQuery(LEAD_PAGES[lang].confirmation, queryOf(lead)));
      return json(outcome === 'delivered' ? 200 : 202, { ok: true, status: outcome }, cors);
    } catch (err) {
      if (err instanceof Reject) {
        if (isForm && err.status !== 405)
          return redirect(site + links.withQuery(errorPage(lang), { status: err.status }));
        return json(err.status, { ok: false, error: err.message }, { ...err.headers, ...cors });
      }
      // The store could not keep the lead (disk full, at its cap, the database down): say so,
      // so the visitor can call. The reason is logged, never shown.
      log('lead failed', { error: (err as Error).message });
      return isForm
        ? redirect(site + links.withQuery(errorPage(lang), { status: 503 }))
        : json(503, { ok: false, error: 'could not store the submission' }, cors);
    }
  };
}

/** One delivery per submission id at a time: a second post of it waits for the first's. */
function oncePerSubmission(deliverer: Deliverer): (lead: Lead) => Promise<Outcome> {
  const inFlight = new Map<string, Promise<Outcome>>();
  return (lead) => {
    let pending = inFlight.get(lead.submissionId);
    if (!pending) {
      pending = deliverOrKeep(deliverer, lead, Date.now() + CRM_WITHIN_MS).finally(() =>
        inFlight.delete(lead.submissionId),
      );
      inFlight.set(lead.submissionId, pending);
    }
    return pending;
  };
}

/** The visitor, not the proxy in front: every visitor behind one would share its limit. */
function visitorOf(request: Request, client: ClientInfo, config: LeadConfig): string {
  return client.fromPlatform
    ? (client.clientIp ?? 'unknown')
    : config.trustedProxies.clientOf(
        client.clientIp ?? 'unknown',
        request.headers.get('x-forwarded-for'),
      );
}

/** The body, within its limit, as a form's fields or JSON. */
async function readSubmission(request: Request, isForm: boolean): Promise<unknown> {
  const text = await readLimited(request, MAX_BODY_BYTES);
  if (isForm) {
    const raw = fromFormData(new URLSearchParams(text));
    // Without JavaScript no id was made in the browser: one is made here instead.
    const r = raw as Record<string, unknown>;
    if (!r.submissionId) r.submissionId = randomUUID();
    return raw;
  }
  try {
    return JSON.parse(text);
  } catch {
    throw new Reject(400, 'malformed JSON');
  }
}

/** The submission as a lead, checked against the schema and, where it is on, Turnstile. */
async function acceptLead(raw: unknown, visitor: string, config: LeadConfig, log: Log) {
  const parsed = leadSchema.safeParse(raw);
  if (!parsed.success) throw new Reject(400, reason(parsed.error));
  const lead = { ...parsed.data, receivedAt: new Date().toISOString() };
  if (config.turnstileSecret) {
    const verdict = await verifyTurnstile(
      config.turnstileSecret,
      turnstileTokenOf(raw),
      visitor,
      config.turnstileVerifyUrl,
    );
    if (!verdict.ok) {
      log('lead rejected', { reason: 'turnstile', codes: verdict.codes });
      throw new Reject(403, 'the bot check failed: send the form again');
    }
  }
  return lead;
}

/** What the confirmation page is told of a lead posted as a form. */
function queryOf(lead: Lead) {
  const city = lead.form === 'contact' ? '' : lead.city;
  const damage = lead.form === 'contact' ? '' : lead.damageTypes.join();
  return { city, ref: shortReference(lead.submissionId), damage };
}

/**
 * CORS for a site whose pages are served from another origin than the endpoint (a static host
 * with the endpoint on a Node host): an allowed origin gets its own name back, never `*`, and
 * every answer says it varies by Origin. Same-origin and unlisted requests get none.
 */
function corsHeaders(request: Request, allowed: readonly string[]): Record<string, string> {
  const origin = request.headers.get('origin');
  if (!origin || origin === new URL(request.url).origin) return {};
  if (!allowed.includes(origin)) return { Vary: 'Origin' };
  return { 'Access-Control-Allow-Origin': origin, Vary: 'Origin' };
}

/** The answer to a browser's preflight before a cross-origin JSON post. */
function preflight(request: Request, cors: Record<string, string>): Response {
  const method = request.headers.get('access-control-request-method');
  if (!cors['Access-Control-Allow-Origin'] || (method && method !== 'POST'))
    return new Response(null, { status: 403, headers: { Vary: 'Origin' } });
  return new Response(null, {
    status: 204,
    headers: {
      ...cors,
      'Access-Control-Allow-Methods': 'POST',
      'Access-Control-Allow-Headers': 'Content-Type, Accept',
      'Access-Control-Max-Age': '86400',
    },
  });
}

/**
 * A post must come from the endpoint's own origin or one allowed; a browser always says which
 * (Origin, or at least Referer), and a page elsewhere cannot pretend otherwise.
 */
function checkOrigin(request: Request, allowed: readonly string[]) {
  const origin = request.headers.get('origin') ?? originOf(request.headers.get('referer'));
  if (origin && (origin === new URL(request.url).origin || allowed.includes(origin))) return;
  throw new Reject(403, 'origin not allowed');
}

function originOf(url: string | null): string | null {
  if (!url) return null;
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), {
    status,
    headers: {
      'Content-Type': 'application/json; charset=utf-8',
      'Cache-Control': 'no-store',
      ...headers,
    },
  });

/**
 * The path of the page that posted, without the site's folder, when the browser says (a page of
 * another origin does not).
 */
function refererPath(request: Request, basePath: string): string | null {
  try {
    const path = new URL(request.headers.get('referer') ?? '').pathname;
    return basePath && path.startsWith(`${basePath}/`) ? path.slice(basePath.length) : path;
  } catch {
    return null;
  }
}

const redirect = (location: string) =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
