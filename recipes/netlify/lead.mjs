// The lead endpoint as a Netlify Function, mounted at /api/lead by its config (Netlify reads the
// path from this file). The code is claimsite's, compiled: a lead the CRM does not take at once
// waits in Netlify Blobs, where drain-leads.mjs tries it again.
// Written by claimsite: `npx claimsite deploy netlify` brings it up to date unless you changed it.
import { handleLead } from 'claimsite/lead/netlify';

export default handleLead;

export const config = { path: '/api/lead' };
