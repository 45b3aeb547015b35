// Lighthouse (mobile, default throttling) on the key pages of the bundled site; prints the four
// category scores and the timings per page (medians of the runs).
// Exits 1 when accessibility, best practices or SEO is below 100, when the page's layout shifts
// (the median run at all, any run by 0.1, the web's "good" limit), or when performance falls below
// PERFORMANCE_FLOOR. Those first three and layout shift
// are properties of the page; the performance score is mostly a timing of this machine (its Total
// Blocking Time moved from 90 to 290 ms between runs of one page here while other work shared the
// machine), so it is printed as a figure, held only to a floor that catches a real regression.
// Usage: npm run audit [-- --runs 5]
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { generate, startServer } from '../lib/cli.cjs';

// Indexable pages of each template with a form: a page left out of the index on purpose (a
// city's other landing pages, its claim-type pages) fails Lighthouse's is-crawlable by design.
const PAGES = ['/', '/toronto/', '/canada/fire-damage-claims/', '/faq/', '/fr/montreal/'];
const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'];
const PERFORMANCE_FLOOR = 90;
const TIMINGS = [
  ['FCP', 'first-contentful-paint'],
  ['LCP', 'largest-contentful-paint'],
  ['TBT', 'total-blocking-time'],
  ['SI', 'speed-index'],
];
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 1;

// A folder of its own, removed at the end: each run would otherwise leave a whole site behind.
const tmp = await mkdtemp(path.join(os.tmpdir(), 'claimsite-audit-'));
const dist = path.join(tmp, 'dist');
// Compressed, as every host and `claimsite serve` of a `--precompress` build send it: an
// uncompressed build measures a site nobody is served (its simulated first paint ~150 ms later).
await generate({ dataDir: path.resolve('data'), outDir: dist, precompress: true });
const { server, url } = await startServer({ dir: dist, port: 0, host: '127.0.0.1', apiPath: null });
const chrome = await chromeLauncher.launch({
  chromePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  chromeFlags: [
    '--headless=new',
    '--no-sandbox',
    '--disable-gpu',
    '--disable-background-networking',
    '--disable-component-update',
  ],
});

let failed = false;
try {
  console.log(
    `${'page'.padEnd(30)} ${CATEGORIES.map((c) => c.padStart(15)).join('')}` +
      `${TIMINGS.map(([t]) => t.padStart(8)).join('')}${'CLS'.padStart(7)}`,
  );
  for (const p of PAGES) {
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, []]));
    const timings = Object.fromEntries(TIMINGS.map(([t]) => [t, []]));
    const shifts = [];
    const notes = new Set();
    for (let i = 0; i < runs; i++) {
      const { lhr } = await lighthouse(url + p, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
      });
      for (const c of CATEGORIES) scores[c].push(Math.round((lhr.categories[c]?.score ?? 0) * 100));
      for (const [t, id] of TIMINGS) timings[t].push(lhr.audits[id]?.numericValue ?? Number.NaN);
      shifts.push(lhr.audits['cumulative-layout-shift']?.numericValue ?? Number.NaN);
      for (const item of lhr.audits['layout-shifts']?.details?.items ?? [])
        notes.add(
          `  layout shift ${item.score?.toFixed(3)}: ${item.node?.selector ?? 'unknown element'}`,
        );
      for (const c of CATEGORIES) {
        for (const ref of lhr.categories[c]?.auditRefs ?? []) {
          const a = lhr.audits[ref.id];
          if (ref.weight > 0 && a && a.score !== null && a.score < 1)
            notes.add(`  ${c}: ${a.id} (${a.title})${a.displayValue ? ` ${a.displayValue}` : ''}`);
        }
      }
    }
    const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
    const row = CATEGORIES.map((c) => median(scores[c]));
    const shift = median(shifts);
    console.log(
      `${p.padEnd(30)} ${row.map((s) => String(s).padStart(15)).join('')}` +
        `${TIMINGS.map(([t]) => `${Math.round(median(timings[t]))}`.padStart(8)).join('')}` +
        `${shift.toFixed(3).padStart(7)}`,
    );
    const [performance, ...others] = row;
    const shifted = !(shift === 0) || shifts.some((s) => !(s < 0.1));
    if (performance < PERFORMANCE_FLOOR || others.some((s) => s < 100) || shifted) {
      failed = true;
      for (const n of notes) console.log(n);
    }
  }
} finally {
  await chrome.kill();
  server.close();
  await rm(tmp, { recursive: true, force: true });
}
if (failed) {
  console.error(
    `A page's layout shifted, its accessibility, best practices or SEO is below 100, or its performance below ${PERFORMANCE_FLOOR}.`,
  );
  process.exitCode = 1;
}
