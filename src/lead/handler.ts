import { randomUUID } from 'node:crypto';
import { links } from '../urls.js';
import type { LeadConfig } from './config.js';
import { type CrmClient, createCrmClient } from './crm.js';
import { jsonLog, type Log } from './log.js';
import { Outbox } from './outbox.js';
import { RateLimiter } from './rate-limit.js';
import { MAX_BODY_BYTES } from './rules.js';
import { fromFormData, type Lead, leadSchema, reason } from './schema.js';

export interface LeadHandlerOptions {
  config: LeadConfig;
  crm?: CrmClient;
  outbox?: Outbox;
  log?: Log;
}

/** What the adapter knows about the connection. */
export interface ClientInfo {
  clientIp?: string;
}

export type LeadHandler = (request: Request, client?: ClientInfo) => Promise<Response>;

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

/**
 * The lead endpoint as a portable Fetch-API handler. It checks origin, type, size and rate,
 * validates with the form's schema, delivers to the CRM, and puts whatever it could not
 * deliver in the durable outbox: an accepted lead is never lost.
 */
export function createLeadHandler(options: LeadHandlerOptions): LeadHandler {
  const { config } = options;
  const log = options.log ?? jsonLog;
  const crm = options.crm ?? (config.token ? createCrmClient(config, log) : undefined);
  const outbox = options.outbox ?? new Outbox(config.outboxPath);
  const limiter = new RateLimiter(config.rateLimit, config.rateWindowMs);
  const inFlight = new Map<string, Promise<'delivered' | 'queued'>>();

  const accept = async (lead: Lead): Promise<'delivered' | 'queued'> => {
    if (await outbox.ledger.has(lead.submissionId)) return 'delivered';
    if (!crm) {
      await outbox.add(lead, 'no CRM token configured');
      log('lead queued', { submissionId: lead.submissionId, reason: 'no CRM token configured' });
      return 'queued';
    }
    try {
      const { contactId, noteAdded } = await crm.deliver(lead);
      await outbox.ledger.add(lead.submissionId, contactId);
      log('lead delivered', { submissionId: lead.submissionId, contactId, noteAdded });
      return 'delivered';
    } catch (err) {
      await outbox.add(lead, (err as Error).message);
      log('lead queued', { submissionId: lead.submissionId, reason: (err as Error).message });
      return 'queued';
    }
  };

  return async (request, client = {}) => {
    const cors = corsHeaders(request, config.allowedOrigins);
    if (request.method === 'OPTIONS') return preflight(request, cors);
    // A form posted without JavaScript from an allowed other origin goes back to that site: a
    // relative address would land on the endpoint's own host.
    const site = cors['Access-Control-Allow-Origin'] ?? '';
    const type =
      (request.headers.get('content-type') ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
    const isForm = type === 'application/x-www-form-urlencoded';
    try {
      if (request.method !== 'POST') throw new Reject(405, 'use POST', { Allow: 'POST' });
      checkOrigin(request, config.allowedOrigins);
      if (!isForm && type !== 'application/json')
        throw new Reject(415, 'send application/json or a form');
      const wait = limiter.take(client.clientIp ?? 'unknown');
      if (wait !== null)
        throw new Reject(429, 'too many submissions', {
          'Retry-After': String(Math.ceil(wait / 1000)),
        });
      const text = await readLimited(request, MAX_BODY_BYTES);
      let raw: unknown;
      if (isForm) {
        raw = fromFormData(new URLSearchParams(text));
        // Without JavaScript no id was made in the browser: one is made here instead.
        const r = raw as Record<string, unknown>;
        if (!r.submissionId) r.submissionId = randomUUID();
      } else {
        try {
          raw = JSON.parse(text);
        } catch {
          throw new Reject(400, 'malformed JSON');
        }
      }
      if (
        typeof raw === 'object' &&
        raw &&
        'website' in raw &&
        String((raw as { website: unknown }).website).trim()
      ) {
        log('lead rejected', { reason: 'honeypot', clientIp: client.clientIp });
        throw new Reject(400, 'rejected');
      }
      const parsed = leadSchema.safeParse(raw);
      if (!parsed.success) throw new Reject(400, reason(parsed.error));
      const lead = parsed.data;

      let pending = inFlight.get(lead.submissionId);
      if (!pending) {
        pending = accept(lead).finally(() => inFlight.delete(lead.submissionId));
        inFlight.set(lead.submissionId, pending);
      }
      const outcome = await pending;
      if (isForm) {
        const city = lead.form === 'contact' ? '' : lead.city;
        return redirect(site + links.withQuery(links.page('confirmation'), { city }));
      }
      return json(outcome === 'delivered' ? 200 : 202, { ok: true, status: outcome }, cors);
    } catch (err) {
      if (err instanceof Reject) {
        if (isForm && err.status !== 405)
          return redirect(site + links.withQuery(config.errorPage, { status: err.status }));
        return json(err.status, { ok: false, error: err.message }, { ...err.headers, ...cors });
      }
      // The outbox itself failed (disk full, permissions): say so, so the visitor can call.
      log('lead failed', { error: (err as Error).message });
      return isForm
        ? redirect(site + links.withQuery(config.errorPage, { status: 503 }))
        : json(503, { ok: false, error: 'could not store the submission' }, cors);
    }
  };
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

function checkOrigin(request: Request, allowed: readonly string[]) {
  if (allowed.length === 0) return;
  const origin = request.headers.get('origin') ?? originOf(request.headers.get('referer'));
  if (!origin || !allowed.includes(origin)) throw new Reject(403, 'origin not allowed');
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

const redirect = (location: string) =>
  new Response(null, { status: 303, headers: { Location: location, 'Cache-Control': 'no-store' } });
