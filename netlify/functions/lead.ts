// The lead endpoint as a Netlify Function (modern syntax: a Request in, a Response out).
// Set GHL_TOKEN, GHL_LOCATION_ID and SITE_ORIGIN in the site's environment variables.
// A function's disk is temporary: point LEAD_OUTBOX_PATH at /tmp only if you accept that a
// lead the CRM refused for longer than the retries may be lost; the Node server keeps it.
import { configFromEnv } from '../../src/lead/config.js';
import { createLeadHandler } from '../../src/lead/handler.js';

const handle = createLeadHandler({
  config: configFromEnv({ LEAD_OUTBOX_PATH: '/tmp/claimsite/leads.jsonl', ...process.env }),
});

export default (request: Request, context: { ip?: string }) =>
  handle(request, { clientIp: context.ip });

export const config = { path: '/api/lead' };
