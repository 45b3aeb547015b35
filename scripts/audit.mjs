// Lighthouse (mobile, default throttling) on the key pages of the bundled site; prints the four
// category scores per page and exits 1 when any is below 100.
// Usage: npm run audit [-- --runs 3]   (the median of several runs steadies the performance score)
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
const runsArg = process.argv.indexOf('--runs');
const runs = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 1;

// A folder of its own, removed at the end: each run would otherwise leave a whole site behind.
const tmp = await mkdtemp(path.join(os.tmpdir(), 'claimsite-audit-'));
const dist = path.join(tmp, 'dist');
await generate({ dataDir: path.resolve('data'), outDir: dist });
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
  console.log(`${'page'.padEnd(30)} ${CATEGORIES.map((c) => c.padStart(15)).join('')}`);
  for (const p of PAGES) {
    const scores = Object.fromEntries(CATEGORIES.map((c) => [c, []]));
    const notes = new Set();
    for (let i = 0; i < runs; i++) {
      const { lhr } = await lighthouse(url + p, {
        port: chrome.port,
        output: 'json',
        logLevel: 'error',
        onlyCategories: CATEGORIES,
      });
      for (const c of CATEGORIES) scores[c].push(Math.round((lhr.categories[c]?.score ?? 0) * 100));
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
    console.log(`${p.padEnd(30)} ${row.map((s) => String(s).padStart(15)).join('')}`);
    if (row.some((s) => s < 100)) {
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
  console.error('Some score is below 100.');
  process.exitCode = 1;
}
