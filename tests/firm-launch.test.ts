import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startFakeCrm } from './fake-crm.js';
import { tempDir } from './helpers.js';
import { sampleClaim } from './lead/sample.js';
import {
  installedSite,
  markNothingSample,
  netlifyBundle,
  netlifyEnvironment,
  packClaimsite,
  sh,
} from './site-folder.js';

/**
 * A public-adjuster firm licensed in Alberta only (the firm the issue tried it as), its settings
 * as it writes them into data/site.json.
 */
const FIRM = {
  siteName: 'Prairie Claim Advocates',
  baseUrl: 'https://www.prairieclaimadvocates.ca',
  phone: '1-403-555-0142',
  email: 'help@prairieclaimadvocates.ca',
  privacyEmail: 'privacy@prairieclaimadvocates.ca',
  business: {
    legalName: 'Prairie Claim Advocates Ltd.',
    address: { street: '800 5 Ave SW', city: 'Calgary', province: 'AB', postalCode: 'T2P 3T6' },
    licences: [{ province: 'AB', issuedBy: 'Alberta Insurance Council', number: 'C-0145522' }],
    adjusters: [
      {
        name: 'Dana Whitford',
        licences: [{ province: 'AB', issuedBy: 'Alberta Insurance Council', number: 'A-0231187' }],
        cities: ['calgary'],
      },
      {
        name: 'Marc Belanger',
        licences: [{ province: 'AB', issuedBy: 'Alberta Insurance Council', number: 'A-0231204' }],
        cities: ['edmonton'],
      },
    ],
  },
  theme: { colors: { primary: '#1f4d2b', accent: '#e0a100' }, font: 'atkinson-hyperlegible' },
};

describe('a firm launches its own site from the packed claimsite', () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  it('init, its settings only, the publishing build, and its Netlify function answering a POST', async () => {
    const dir = await tempDir('claimsite-firm-');
    const { site } = await installedSite(dir, await packClaimsite(dir), 'prairie');
    // Settings only: site.json, and nothing left marked sample.
    await markNothingSample(site);
    const file = path.join(site, 'data/site.json');
    const bundled = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, `${JSON.stringify({ ...bundled, ...FIRM }, null, 2)}\n`);

    const build = sh(site, 'npx', ['claimsite', 'generate', '--strict']);
    expect(build.code, build.err).toBe(0);
    const home = await readFile(path.join(site, 'dist/index.html'), 'utf8');
    expect(home).toContain('Prairie Claim Advocates');
    expect(home).toContain('href="tel:+14035550142"');
    expect(home).not.toContain('ClaimRight');

    // The endpoint as Netlify runs it, bundled from the folder, posting from the firm's domain.
    const lead = await netlifyBundle(site, 'lead.mjs');
    const crm = await startFakeCrm({ api: 'v2' });
    const blobs = await netlifyEnvironment({ ...crm.env(), URL: FIRM.baseUrl });
    try {
      const fn = await import(lead.file);
      const answer: Response = await fn.default(
        new Request(`${FIRM.baseUrl}/api/lead`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: FIRM.baseUrl },
          body: JSON.stringify(
            sampleClaim({ city: 'Calgary', province: 'AB', page: '/calgary/public-adjusters/' }),
          ),
        }),
        { ip: '203.0.113.40' },
      );
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(crm.contacts.size).toBe(1);
      const [contact] = [...crm.contacts.values()] as Array<{ city?: string; state?: string }>;
      expect(contact).toMatchObject({ city: 'Calgary', state: 'AB' });
    } finally {
      await blobs.stop();
      await crm.close();
    }
  }, 420_000);
});
