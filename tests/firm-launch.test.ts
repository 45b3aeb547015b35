import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSite } from '../src/site/load.js';
import {
  ALBERTA_FIRM,
  albertaSettings,
  makeAlbertaFirm,
  putSampleFigureBack,
} from './alberta-firm.js';
import { startFakeCrm } from './fake-crm.js';
import { BUNDLED_DATA, tempDir } from './helpers.js';
import { sampleClaim } from './lead/sample.js';
import {
  installedSite,
  netlifyBundle,
  netlifyEnvironment,
  packClaimsite,
  sh,
} from './site-folder.js';

const NATIONWIDE = /across canada|canada-wide|partout au canada/i;
const SAMPLE_LABEL = 'Sample: replace before publishing';

/** Every file of a built folder, by its path under it. */
const filesOf = async (dist: string) => (await readdir(dist, { recursive: true })).map(String);

/**
 * Issue 44's play, as a firm licensed in Alberta only would run it: claimsite from its packed
 * tarball, a folder made by init, settings and content only (tests/alberta-firm.ts), the
 * publishing build, the endpoint bundled from the folder as Netlify bundles it; then one sample
 * marker back. tests/service-area.test.ts checks the same firm page by page with the checkout's
 * CLI; this proves the installed package does the same.
 */
describe('a firm launches its own site from the packed claimsite', () => {
  const saved = { ...process.env };
  afterAll(() => {
    process.env = saved;
  });

  it('init, its settings only, the publishing build, its Netlify function, a sample put back', async () => {
    const dir = await tempDir('claimsite-firm-');
    const { site } = await installedSite(dir, await packClaimsite(dir), 'prairie');
    await makeAlbertaFirm(site);

    const build = sh(site, 'npx', ['claimsite', 'generate', '--strict']);
    expect(build.code, build.err).toBe(0);
    const dist = path.join(site, 'dist');
    const files = await filesOf(dist);
    const bundled = await loadSite(BUNDLED_DATA);
    const elsewhere = bundled.cities.filter((c) => c.provinceCode !== 'AB' && c.slug !== 'canada');
    const tops = new Set(files.map((f) => f.split('/')[0]));
    expect(elsewhere.filter((c) => tops.has(c.slug)).map((c) => c.slug)).toEqual([]);
    expect(tops.has('calgary') && tops.has('edmonton')).toBe(true);
    expect(tops.has('fr')).toBe(false);

    const html = files.filter((f) => f.endsWith('.html'));
    for (const f of html) {
      const page = await readFile(path.join(dist, f), 'utf8');
      const hero = /<section[^>]*class="[^"]*\bhero\b[\s\S]*?<\/section>/.exec(page)?.[0] ?? '';
      expect(hero, f).not.toMatch(NATIONWIDE);
      const ld = [...page.matchAll(/<script type="application\/ld\+json">(.*?)<\/script>/gs)];
      for (const m of ld) expect(m[1], f).not.toMatch(NATIONWIDE);
      expect(/og:image:alt" content="([^"]*)"/.exec(page)?.[1] ?? '', f).not.toMatch(NATIONWIDE);
    }
    const home = await readFile(path.join(dist, 'index.html'), 'utf8');
    expect(/<section[^>]*class="[^"]*\bhero\b[\s\S]*?<\/section>/.exec(home)?.[0]).toMatch(
      /across Alberta/i,
    );
    const sitemap = await readFile(path.join(dist, 'sitemap.xml'), 'utf8');
    const listed = [...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map(
      (m) => new URL(m[1] ?? '').pathname,
    );
    expect(listed.length).toBeGreaterThan(10);
    for (const p of listed)
      expect(
        elsewhere.some((c) => p.startsWith(`/${c.slug}/`)),
        p,
      ).toBe(false);
    const about = await readFile(path.join(dist, 'about/index.html'), 'utf8');
    for (const name of [
      ALBERTA_FIRM.legalName,
      ALBERTA_FIRM.licence.number,
      ...ALBERTA_FIRM.adjusters,
    ])
      expect(about).toContain(name);
    expect(about).not.toContain(SAMPLE_LABEL);

    // The endpoint as Netlify runs it, bundled from the folder, posting from the firm's domain.
    const baseUrl = String(albertaSettings().baseUrl);
    const lead = await netlifyBundle(site, 'lead.mjs');
    const crm = await startFakeCrm({ api: 'v2' });
    const blobs = await netlifyEnvironment({ ...crm.env(), URL: baseUrl });
    try {
      const fn = await import(lead.file);
      const answer: Response = await fn.default(
        new Request(`${baseUrl}/api/lead`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json', Origin: baseUrl },
          body: JSON.stringify(
            sampleClaim({
              city: 'Calgary',
              province: 'AB',
              page: '/calgary/public-adjusters/',
              address: '301 8 Ave SW',
              propertyCity: 'Calgary',
              postalCode: 't2p 1c5',
            }),
          ),
        }),
        { ip: '203.0.113.40' },
      );
      expect(answer.status, await answer.clone().text()).toBe(200);
      expect(crm.contacts.size).toBe(1);
      const [contact] = [...crm.contacts.values()] as Array<{ city?: string; state?: string }>;
      // The contact's address is the property's: its province told by the postal code.
      expect(contact).toMatchObject({ city: 'Calgary', state: 'AB', postalCode: 'T2P 1C5' });
    } finally {
      await blobs.stop();
      await crm.close();
    }

    // One sample marker back: labelled on its page by a plain build, refused by the publishing one.
    const { file, field } = await putSampleFigureBack(site);
    const before = await readFile(path.join(dist, 'about/index.html'), 'utf8');
    const refused = sh(site, 'npx', ['claimsite', 'generate', '--strict']);
    expect(refused.code).not.toBe(0);
    expect(refused.err).toContain(file);
    expect(refused.err).toContain(field);
    expect(await readFile(path.join(dist, 'about/index.html'), 'utf8')).toBe(before);
    const plain = sh(site, 'npx', ['claimsite', 'generate']);
    expect(plain.code, plain.err).toBe(0);
    expect(await readFile(path.join(dist, 'about/index.html'), 'utf8')).toContain(SAMPLE_LABEL);
  }, 420_000);
});
