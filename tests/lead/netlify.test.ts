import path from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import * as esbuild from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BlobRateLimiter } from '../../src/lead/blob-rate-limit.js';
import { LEADS_STORE, netlifyLeads } from '../../src/lead/netlify.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { ROOT, tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';

/**
 * The Netlify functions as Netlify runs them: configured from the environment, with Netlify
 * Blobs given by NETLIFY_BLOBS_CONTEXT (here the package's own local server, as `netlify dev`
 * uses), the endpoint and the scheduled drain sharing the store. The functions are the files
 * `init` writes into a site folder, bundled here with claimsite's sources for the package they
 * import (tests/recipes.test.ts bundles them in a site folder, from the packed package).
 */
async function functionOf(name: string) {
  const dir = await tempDir('claimsite-netlify-');
  await esbuild.build({
    entryPoints: [path.join(ROOT, 'recipes/netlify', `${name}.mjs`)],
    outdir: dir,
    outExtension: { '.js': '.mjs' },
    bundle: true,
    format: 'esm',
    platform: 'node',
    alias: { 'claimsite/lead/netlify': path.join(ROOT, 'src/lead/netlify.ts') },
    logLevel: 'silent',
  });
  return import(path.join(dir, `${name}.mjs`));
}
let crm: FakeCrm;
let blobs: BlobsServer;
type Handler = (req: Request, ctx: { ip?: string }) => Promise<Response>;
let lead: { default: Handler; config: { path: string } };
let drainLeads: { default: () => Promise<Response>; config: { schedule: string } };
const saved = { ...process.env };

beforeAll(async () => {
  crm = await startFakeCrm({ api: 'v2' });
  const token = 'blobs-test-token';
  blobs = new BlobsServer({ directory: await tempDir('claimsite-blobs-'), token });
  const { port } = await blobs.start();
  Object.assign(process.env, crm.env(), {
    URL: 'https://www.claimright.ca',
    LEAD_RATE_LIMIT: '2',
    NETLIFY_BLOBS_CONTEXT: Buffer.from(
      // Netlify gives functions both addresses; strong reads go to the uncached one.
      JSON.stringify({
        edgeURL: `http://localhost:${port}`,
        uncachedEdgeURL: `http://localhost:${port}`,
        siteID: 'site-1',
        token,
      }),
    ).toString('base64'),
  });
  delete process.env.SITE_ORIGIN;
  delete process.env.LEAD_OUTBOX_PATH;
  lead = await functionOf('lead');
  drainLeads = await functionOf('drain-leads');
});
afterAll(async () => {
  process.env = saved;
  await crm?.close();
  await blobs?.stop();
});

const post = (body: string, headers: Record<string, string> = {}) =>
  new Request('https://www.claimright.ca/api/lead', {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Origin: 'https://www.claimright.ca',
      ...headers,
    },
    body,
  });

let phones = 0;
const person = () => {
  phones++;
  return sampleClaim({
    email: `n${phones}@example.ca`,
    phone: `867-555-01${String(phones).padStart(2, '0')}`,
  });
};

describe('the Netlify functions', () => {
  it('mount the endpoint at its path and the drain on a schedule Netlify reads', () => {
    expect(lead.config.path).toBe('/api/lead');
    expect(drainLeads.config.schedule).toMatch(/^(\S+ ){4}\S+$/);
  });

  it('deliver a lead posted from the site Netlify names in URL', async () => {
    const before = crm.contacts.size;
    const res = await lead.default(post(JSON.stringify(person())), { ip: '203.0.113.9' });
    expect(res.status).toBe(200);
    expect(crm.contacts.size).toBe(before + 1);
  });

  it('keep a lead in Netlify Blobs while the CRM is down, and the scheduled drain delivers it once', async () => {
    const before = crm.contacts.size;
    crm.down(60_000);
    const res = await lead.default(post(JSON.stringify(person())), { ip: '203.0.113.10' });
    expect(res.status).toBe(202);
    expect(crm.contacts.size).toBe(before);
    crm.down(0);
    const drained = (await (await drainLeads.default()).json()) as {
      delivered: number;
      waiting: number;
    };
    expect(drained).toMatchObject({ delivered: 1, waiting: 0 });
    expect(crm.contacts.size).toBe(before + 1);
    expect(crm.duplicateNotes()).toBe(0);
    expect((await (await drainLeads.default()).json()) as object).toMatchObject({ delivered: 0 });
  });

  it('limit each visitor by the address Netlify gives, whatever X-Forwarded-For says', async () => {
    const send = (ip: string) =>
      lead.default(post(JSON.stringify(person()), { 'X-Forwarded-For': '198.51.100.1' }), { ip });
    const a = [await send('192.0.2.1'), await send('192.0.2.1'), await send('192.0.2.1')];
    expect(a.map((r) => r.status)).toEqual([200, 200, 429]);
    expect((await send('192.0.2.2')).status).toBe(200);
  });

  it("share each visitor's limit between instances of the function, through Netlify Blobs", async () => {
    // Two instances, as Netlify starts under load: each with its own memory, one store.
    const instances = [netlifyLeads(), netlifyLeads()];
    const send = (i: number, ip: string) =>
      instances[i % 2]?.handle(post(JSON.stringify(person())), {
        clientIp: ip,
        fromPlatform: true,
      });
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await send(i, '192.0.2.77'))?.status);
    // LEAD_RATE_LIMIT is 2: the third is refused, whichever instance takes it.
    expect(statuses).toEqual([200, 200, 429, 429]);
    expect((await send(0, '192.0.2.78'))?.status).toBe(200);
    // No address is kept: only digests, under the window.
    const { blobs: keys } = await getStore(LEADS_STORE).list({ prefix: 'rate/' });
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.every((b) => /^rate\/\d+\/[0-9a-f]{32}$/.test(b.key))).toBe(true);
  });

  it('lose no count when another instance counts between a read and its write', async () => {
    const store = getStore(LEADS_STORE);
    const other = new BlobRateLimiter(store, 3, 60_000);
    let reads = 0;
    /** An instance whose first read is overtaken: another counts before it writes. */
    class Overtaken extends BlobRateLimiter {
      protected override async read(key: string) {
        const held = await super.read(key);
        if (++reads === 1) await other.take('198.51.100.200');
        return held;
      }
    }
    const slow = new Overtaken(store, 3, 60_000);
    await other.take('198.51.100.200');
    // slow reads 1, other makes it 2, slow's write on the old ETag is refused: it reads 2, writes 3.
    expect(await slow.take('198.51.100.200')).toBeNull();
    expect(reads).toBe(2);
    expect(await other.take('198.51.100.200')).toBeGreaterThan(0);
  });

  it('reject bad input the same way as the Node server', async () => {
    const res = await lead.default(post('{'), { ip: '203.0.113.11' });
    expect(res.status).toBe(400);
  });
});
