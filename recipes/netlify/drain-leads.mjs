// Tries the leads waiting in Netlify Blobs again, every five minutes (Netlify runs scheduled
// functions on published deploys only).
// Written by claimsite: `npx claimsite deploy netlify` brings it up to date unless you changed it.
import { drainLeads } from 'claimsite/lead/netlify';

export default drainLeads;

export const config = { schedule: '*/5 * * * *' };
