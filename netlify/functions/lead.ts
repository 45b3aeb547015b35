// The lead endpoint as a Netlify Function (modern syntax: a Request in, a Response out), mounted
// at /api/lead by its own config. Set GHL_TOKEN, GHL_LOCATION_ID (and SITE_ORIGIN, if the site is
// served at more than Netlify's URL) in the site's environment variables. A lead the CRM does not
// take at once waits in Netlify Blobs, where drain-leads.ts tries it again every five minutes.
import type { LeadService } from '../../src/lead/handler.js';
import { netlifyLeads } from '../../src/lead/netlify.js';

// Made at the first request, when Netlify has set up the function's environment (Blobs too).
let leads: LeadService | undefined;

// Netlify names the visitor's address itself: no forwarded header is consulted.
export default (request: Request, context: { ip?: string }) => {
  leads ??= netlifyLeads();
  return leads.handle(request, { clientIp: context.ip, fromPlatform: true });
};

export const config = { path: '/api/lead' };
