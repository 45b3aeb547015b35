import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from '../../src/generate/host-files.js';
import { headersFor, parseHeadersFile, rulesFor } from '../../src/serve/headers-file.js';
import { pathForFile } from '../../src/urls.js';
import { FAKE_GTAG } from '../e2e/fake-google.js';
import { browserAndSite, openPage, startSite } from '../e2e/harness.js';
import { dataCopy, FIXTURE_DATA, fixtureSite } from '../helpers.js';
import { readSite } from './site-files.js';

/** One page of every kind, the not-found page through an unknown path. */
const PAGES = [
  '/',
  '/faq/',
  '/contact/',
  '/blog/public-adjuster-fees-explained/',
  '/sitemap/',
  '/confirmation/?city=Toronto',
  '/form-error/',
  '/atlantis/',
  '/toronto/',
  '/toronto/about/',
  '/toronto/public-adjusters/',
  '/toronto/services/',
  '/toronto/fire-damage-claims/',
  '/toronto/scarborough/',
  '/canada/ontario/',
];

const env = browserAndSite();

/** Opens each path and returns every CSP violation the page reported, and whether its scripts ran. */
async function visit(
  url: string,
  paths: readonly string[],
  prepare?: (p: import('playwright-core').Page) => Promise<unknown>,
) {
  const { page, context } = await openPage(env.browser, 1280);
  await page.addInitScript(() => {
    const w = window as unknown as { violations: string[] };
    w.violations = [];
    document.addEventListener('securitypolicyviolation', (e) =>
      w.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  const console: string[] = [];
  page.on('console', (m) => {
    if (/Content Security Policy/i.test(m.text())) console.push(m.text());
  });
  await prepare?.(page);
  const found: string[] = [];
  for (const p of paths) {
    const res = await page.goto(url + p);
    expect(res?.headers()['content-security-policy'], p).toContain("default-src 'self'");
    await page.waitForLoadState('networkidle');
    const state = await page.evaluate(() => ({
      violations: (window as unknown as { violations: string[] }).violations,
      scripted: document.documentElement.classList.contains('js'),
    }));
    found.push(...state.violations.map((v) => `${p}: ${v}`));
    if (!state.scripted) found.push(`${p}: the inline script did not run`);
  }
  await context.close();
  return [...found, ...console];
}

describe('host configuration: _headers', () => {
  it('sets the security headers on every response and caches only hashed assets for a year', async () => {
    const text = await readFile(path.join(env.site.dist, '_headers'), 'utf8');
    const rules = parseHeadersFile(text);
    const page = headersFor(rules, '/toronto/');
    const csp = page.get('Content-Security-Policy') ?? '';
    for (const d of [
      "default-src 'self'",
      "style-src 'self'",
      "connect-src 'self'",
      "form-action 'self'",
      "frame-ancestors 'none'",
      "object-src 'none'",
      "base-uri 'self'",
    ])
      expect(csp).toContain(d);
    expect(csp).toMatch(/script-src 'self' 'sha256-[A-Za-z0-9+/]+=*'(;|$)/);
    expect(csp).not.toContain('unsafe');
    expect(page.get('Strict-Transport-Security')).toMatch(/^max-age=\d{8}/);
    expect(page.get('X-Content-Type-Options')).toBe('nosniff');
    expect(page.get('X-Frame-Options')).toBe('DENY');
    expect(page.get('Referrer-Policy')).toBe('strict-origin-when-cross-origin');
    expect(page.get('Permissions-Policy')).toContain('camera=()');
    expect(page.has('Cache-Control')).toBe(false);
    const asset = headersFor(rules, '/assets/app.0123456789.js');
    expect(asset.get('Cache-Control')).toBe('public, max-age=31536000, immutable');
    expect(asset.get('Content-Security-Policy')).toBe(csp);
  });

  it('never sets one header in two rules that match the same file (the hosts merge those differently)', async () => {
    const rules = parseHeadersFile(await readFile(path.join(env.site.dist, '_headers'), 'utf8'));
    const twice: string[] = [];
    for (const f of await readSite(env.site.dist)) {
      const names = rulesFor(rules, pathForFile(f.rel)).flatMap((r) =>
        r.set.map(([n]) => n.toLowerCase()),
      );
      if (new Set(names).size !== names.length) twice.push(f.rel);
    }
    expect(twice).toEqual([]);
  });

  it('allows the analytics tag only when an id is set, and the lead endpoint where it runs', async () => {
    const { settings } = await fixtureSite();
    const plain = contentSecurityPolicy(settings);
    expect(plain).not.toContain('googletagmanager');
    const tagged = contentSecurityPolicy({ ...settings, analyticsId: 'G-TEST12345' });
    expect(tagged).toMatch(/script-src [^;]*https:\/\/\*\.googletagmanager\.com/);
    expect(tagged).toMatch(/connect-src [^;]*https:\/\/\*\.google-analytics\.com/);
    expect(tagged).toMatch(/img-src [^;]*https:\/\/\*\.google-analytics\.com/);
    const elsewhere = contentSecurityPolicy({
      ...settings,
      leadEndpoint: 'https://leads.example.org/api/lead',
    });
    expect(elsewhere).toMatch(/connect-src 'self' https:\/\/leads\.example\.org(;| )/);
    expect(elsewhere).toMatch(/form-action 'self' https:\/\/leads\.example\.org(;|$)/);
  });

  it('allows a call-tracking or booking provider, and advertising measurement, only when the settings name them', async () => {
    const { settings } = await fixtureSite();
    const plain = contentSecurityPolicy(settings);
    for (const host of ['callrail', 'leadconnectorhq', 'doubleclick', 'google.com', 'frame-src'])
      expect(plain).not.toContain(host);
    const all = contentSecurityPolicy({
      ...settings,
      analyticsId: 'G-TEST12345',
      tracking: {
        callrail: 'https://cdn.callrail.com/companies/123456789/abcdef0123456789/12/swap.js',
      },
      booking: { calendar: 'https://api.leadconnectorhq.com/widget/booking/abc123' },
    });
    expect(all).toMatch(/script-src [^;]*https:\/\/cdn\.callrail\.com/);
    expect(all).toMatch(/connect-src [^;]*https:\/\/\*\.callrail\.com/);
    expect(all).toMatch(/frame-src https:\/\/api\.leadconnectorhq\.com(;|$)/);
    expect(all).toMatch(
      /img-src [^;]*https:\/\/\*\.g\.doubleclick\.net https:\/\/\*\.google\.com https:\/\/\*\.google\.ca/,
    );
    // Tracking numbers are swapped by the site's own script: they need nothing allowed.
    const numbers = contentSecurityPolicy({
      ...settings,
      tracking: { phones: [{ source: 'google', medium: 'cpc', number: '1-888-555-0101' }] },
    });
    expect(numbers).toBe(plain);
  });
});

describe('the pages under their Content-Security-Policy, in Chromium', () => {
  it('report no violation on any page kind, and their scripts run', async () => {
    expect(await visit(env.site.url, PAGES)).toEqual([]);
  }, 120_000);

  it('load the analytics tag without a violation when an id is set', async () => {
    const { data } = await dataCopy(FIXTURE_DATA);
    const file = path.join(data, 'site.json');
    const settings = JSON.parse(await readFile(file, 'utf8'));
    await writeFile(file, JSON.stringify({ ...settings, analyticsId: 'G-TEST12345' }));
    const tagged = await startSite(data);
    const loaded: string[] = [];
    try {
      const found = await visit(tagged.url, ['/', '/toronto/'], async (page) => {
        await page.addInitScript(() =>
          localStorage.setItem(
            'claimsite-consent',
            JSON.stringify({ analytics: true, ads: true, at: new Date().toISOString() }),
          ),
        );
        await page.route('https://www.googletagmanager.com/**', (route) => {
          loaded.push(route.request().url());
          return route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_GTAG });
        });
        await page.route('https://*.google-analytics.com/**', (route) =>
          route.fulfill({ status: 204, body: '' }),
        );
      });
      expect(found).toEqual([]);
      expect(loaded).toHaveLength(2);
    } finally {
      await tagged.close();
    }
  }, 60_000);
});
