import { getStore, type Store } from '@netlify/blobs';
import { BlobRateLimiter } from './blob-rate-limit.js';
import { BlobLeadStore } from './blob-store.js';
import { configFromEnv } from './config.js';
import { drain } from './delivery.js';
import { createLeadService, type LeadService } from './handler.js';

/** The Netlify Blobs store that holds the site's waiting leads. */
export const LEADS_STORE = 'claimsite-leads';

/**
 * The lead service as Netlify's functions run it: configured from the site's environment
 * variables, its leads kept in Netlify Blobs (the function's own disk does not last), so the
 * endpoint and the scheduled drain share them, and so do its instances' rate limit counts.
 * `blobs` is for tests.
 */
export function netlifyLeads(
  env: NodeJS.ProcessEnv = process.env,
  blobs: Store = getStore(LEADS_STORE),
): LeadService {
  // Netlify names the site's main address in URL: its own pages may post without SITE_ORIGIN.
  const config = configFromEnv(env, { siteOrigin: env.URL });
  return createLeadService({
    config,
    store: new BlobLeadStore(blobs),
    // Every instance of the function counts in the same blobs, so a visitor's limit is one.
    rateLimit: new BlobRateLimiter(blobs, config.rateLimit, config.rateWindowMs),
  });
}

// Made at the first request, when Netlify has set up the function's environment (Blobs too).
let leads: LeadService | undefined;

/**
 * The lead endpoint as a Netlify Function (a Request in, a Response out): a site folder's
 * `netlify/functions/lead.mjs` exports it with its path. Netlify names the visitor's address
 * itself (`context.ip`): no forwarded header is consulted.
 */
export function handleLead(request: Request, context: { ip?: string }): Promise<Response> {
  leads ??= netlifyLeads();
  return leads.handle(request, { clientIp: context?.ip, fromPlatform: true });
}

/**
 * The scheduled function that tries the waiting leads again (`netlify/functions/drain-leads.mjs`).
 * Netlify runs scheduled functions on published deploys only, for at most 30 seconds: the drain
 * starts no delivery after 25. It is the same drain `claimsite leads retry` and a Node server run.
 */
export async function drainLeads(): Promise<Response> {
  leads ??= netlifyLeads();
  return Response.json(await drain(leads.deliverer, { until: Date.now() + 25_000 }));
}
