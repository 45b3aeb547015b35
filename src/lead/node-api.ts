// `claimsite/lead/node`: the lead endpoint for a Node server of one's own (docs/leads.md), as
// `claimsite serve` runs it. Compiled to lib/lead/node.mjs (scripts/build-cli.mjs).

import {
  type LeadHandlerOptions,
  type LeadService,
  createLeadService as serviceOn,
} from './handler.js';
import { withConfiguredStore } from './open-store.js';
import type { LeadStore } from './store.js';

export { configFromEnv } from './config.js';
export { drain } from './delivery.js';
export type { LeadHandler, LeadService } from './handler.js';
export { handleNode } from './node.js';

/**
 * The endpoint and what delivers its leads, on a Node host: the store, unless given, is the
 * configured one (SQLite at LEAD_OUTBOX_PATH, or LEAD_STORE_URL's PostgreSQL).
 */
export function createLeadService(
  options: Omit<LeadHandlerOptions, 'store'> & { store?: LeadStore },
): LeadService {
  return serviceOn(withConfiguredStore(options));
}
