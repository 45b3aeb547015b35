import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import axe from 'axe-core';
import { type Browser, type BrowserContextOptions, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { launchChromium } from '../../scripts/chromium.mjs';
import { generate } from '../../src/generate/generate.js';
import { createStaticHandler } from '../../src/serve/static.js';
import { links } from '../../src/urls.js';
import { BUNDLED_DATA, FIXTURE_DATA, tempDir } from '../helpers.js';
import { sharedBuild } from '../shared-build.js';

/**
 * The run's one Chromium (tests/global-setup.ts), or Debian's Chromium launched as the scripts
 * launch it when there is none. Closing what this returns closes only the connection to the
 * run's browser; each test's pages are in contexts of their own.
 */
export async function launchBrowser(): Promise<Browser> {
  const endpoint = inject('chromiumEndpoint');
  return endpoint ? chromium.connect(endpoint) : launchChromium();
}

export interface LeadRequest {
  contentType: string;
  body: string;
}

/** How the stand-in lead endpoint answers the next submissions. */
export type LeadMode = 'ok' | 'fail' | 'drop' | 'slow' | 'limit';

/**
 * The built fixture site on loopback, plus a lead endpoint at /api/lead that records what it
 * receives and answers as the test tells it: the browser's side of the contract, nothing more.
 */
export async function startSite(dataDir = FIXTURE_DATA) {
  const dist = await builtSite(dataDir);
  const serveStatic = createStaticHandler(dist);
  const lead = { mode: 'ok' as LeadMode, requests: [] as LeadRequest[] };
  const server: Server = createServer(async (req, res) => {
    if (req.method === 'POST' && req.url?.split('?')[0] === '/api/lead') {
      const body = await readBody(req);
      lead.requests.push({ contentType: req.headers['content-type'] ?? '', body });
      if (lead.mode === 'drop') return void req.socket.destroy();
      if (lead.mode === 'slow') await new Promise((r) => setTimeout(r, 400));
      if (lead.mode === 'fail') {
        res.writeHead(502, { 'Content-Type': 'application/json' }).end('{"error":"upstream"}');
        return;
      }
      if (lead.mode === 'limit') {
        res
          .writeHead(429, { 'Content-Type': 'application/json', 'Retry-After': '60' })
          .end('{"ok":false,"error":"too many submissions"}');
        return;
      }
      if ((req.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')) {
        const city = new URLSearchParams(body).get('city') ?? '';
        res
          .writeHead(303, { Location: links.withQuery(links.page('confirmation'), { city }) })
          .end();
        return;
      }
      res.writeHead(200, { 'Content-Type': 'application/json' }).end('{"ok":true}');
      return;
    }
    serveStatic(req, res).catch(() => res.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, dist, lead, close: () => new Promise<void>((r) => server.close(() => r())) };
}

/** The fixture and bundled sites are built once per run (read only); others each time. */
async function builtSite(dataDir: string): Promise<string> {
  if (dataDir === FIXTURE_DATA || dataDir === BUNDLED_DATA) return sharedBuild(dataDir);
  const dist = path.join(await tempDir('claimsite-e2e-'), 'dist');
  await generate({ dataDir, outDir: dist });
  return dist;
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const c of req) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

export const WIDTHS = [375, 1280] as const;

/**
 * A press on a tel: link does all the page does (its own listeners run, analytics' click_to_call
 * among them) but does not hand the number to the system: with no phone app, Chromium passes it
 * to xdg-open, and on a busy machine the page then took no input for seconds (the consent test's
 * next click on Cookie settings never reached the page).
 */
const KEEP_CALLS_IN_PAGE = `addEventListener('click', (e) => {
  if (e.target instanceof Element && e.target.closest('a[href^="tel:"]')) e.preventDefault();
}, true);`;

/** A page that fails the test on any console error or uncaught exception. */
export async function openPage(
  browser: Browser,
  width: number,
  options: BrowserContextOptions = {},
) {
  const context = await browser.newContext({ viewport: { width, height: 900 }, ...options });
  await context.addInitScript(KEEP_CALLS_IN_PAGE);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('console', (m) => {
    // Network answers (a 404 document, a failing endpoint the test asked for) are not script errors.
    if (m.type() === 'error' && !m.text().startsWith('Failed to load resource'))
      errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(e.message));
  return { page, context, errors };
}

export type { Page };

export type Site = Awaited<ReturnType<typeof startSite>>;

/**
 * A browser and the built fixture site on loopback for one test file: started before its tests,
 * stopped after them. Read `browser` and `site` inside the tests.
 */
export function browserAndSite(dataDir = FIXTURE_DATA): { browser: Browser; site: Site } {
  const env = {} as { browser: Browser; site: Site };
  // The run's first file to ask builds the shared site: the bundled one takes more than the
  // default minute on a busy machine.
  beforeAll(async () => {
    [env.browser, env.site] = await Promise.all([launchBrowser(), startSite(dataDir)]);
  }, 300_000);
  afterAll(async () => {
    await env.browser?.close();
    await env.site?.close();
  });
  return env;
}

/** axe-core with the WCAG 2.0 and 2.1 A and AA rules; each violation as page, rule, element. */
export async function axeViolations(page: Page, label: string): Promise<string[]> {
  // Evaluated by the browser's debugger, so the pages' own CSP stays as deployed.
  await page.evaluate(axe.source);
  const result = await page.evaluate(() =>
    (window as unknown as { axe: typeof axe }).axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    }),
  );
  return result.violations.flatMap((v) =>
    v.nodes.map((n) => `${label}: ${v.id} (${v.help}) at ${n.target.join(' ')}`),
  );
}
