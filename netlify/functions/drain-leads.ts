// Tries the leads waiting in Netlify Blobs again, every five minutes (Netlify runs scheduled
// functions on published deploys only, for at most 30 seconds: the drain stops starting
// deliveries after 25). It is the same drain `claimsite leads retry` and a Node server run.
import { drain } from '../../src/lead/delivery.js';
import { netlifyLeads } from '../../src/lead/netlify.js';

export default async () => {
  const { deliverer } = netlifyLeads();
  const result = await drain(deliverer, { until: Date.now() + 25_000 });
  return Response.json(result);
};

export const config = { schedule: '*/5 * * * *' };
