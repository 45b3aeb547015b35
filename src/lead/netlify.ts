import { getStore, type Store } from '@netlify/blobs';
import { BlobRateLimiter } from './blob-rate-limit.js';
import { BlobLeadStore } from './blob-store.js';
import { configFromEnv } from './config.js';
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
