// Edit to reload: how long after an editor saves one city's description an open page shows it,
// with `claimsite dev` on the bundled site. A copy of data/ in a temporary folder is served;
// Chromium holds /toronto/ open; each edit is an atomic save (a temporary file renamed over
// cities/on.json, as editors do), timed from the save to two moments: the reload event reaching
// the page, and the reloaded page's load event.
// Usage: npm run watch-latency -- [--edits N] [--warmup N] (defaults 15 and 3)
import { spawn } from 'node:child_process';
import { cp, mkdtemp, readFile, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { launchChromium } from './chromium.mjs';

const { values } = parseArgs({
  options: { edits: { type: 'string', default: '15' }, warmup: { type: 'string', default: '3' } },
});
const edits = Number(values.edits);
const warmup = Number(values.warmup);
// npm runs scripts from the package's folder.
const root = process.cwd();

const dir = await mkdtemp(path.join(os.tmpdir(), 'claimsite-watch-'));
await cp(path.join(root, 'data'), path.join(dir, 'data'), { recursive: true });
const server = spawn(
  process.execPath,
  [
    path.join(root, 'bin/claimsite.cjs'),
    'dev',
    '--data',
    'data',
    '--dir',
    'dist',
    '--port',
    '0',
    '--no-api',
  ],
  { cwd: dir, stdio: ['ignore', 'pipe', 'inherit'] },
);
const base = await new Promise<string>((resolve, reject) => {
  let out = '';
  server.stdout.on('data', (d) => {
    out += d;
    const m = /Serving .* at (http:\/\/[\d.:]+)/.exec(out);
    if (m?.[1]) resolve(m[1]);
  });
  server.on('exit', () => reject(new Error(`claimsite dev stopped:\n${out}`)));
});

const browser = await launchChromium();
const page = await browser.newPage();
await page.goto(`${base}/toronto/`);
// The reload channel's events, timed in this process as they reach the page.
const reloads: number[] = [];
await page.exposeFunction('__reloadSeen', () => reloads.push(performance.now()));
await page.addInitScript(() => {
  const seen = (window as unknown as { __reloadSeen: () => void }).__reloadSeen;
  new EventSource('/__claimsite/events').addEventListener('reload', () => seen());
});
await page.reload();

const file = path.join(dir, 'data/cities/on.json');
const cities = JSON.parse(await readFile(file, 'utf8')) as Array<{
  slug: string;
  description: string;
}>;
const toronto = cities.find((c) => c.slug === 'toronto');
if (!toronto) throw new Error('no Toronto in data/cities/on.json');
const original = toronto.description;

const toEvent: number[] = [];
const toLoad: number[] = [];
for (let i = 0; i < warmup + edits; i++) {
  const marker = `Edit ${i} of the description.`;
  toronto.description = `${original} ${marker}`;
  const tmp = `${file}.${i}.tmp`;
  await writeFile(tmp, JSON.stringify(cities, null, 2));
  const before = reloads.length;
  const loaded = page.waitForEvent('load', { timeout: 30_000 });
  const saved = performance.now();
  await rename(tmp, file);
  await loaded;
  const done = performance.now();
  if (!(await page.content()).includes(marker)) throw new Error(`edit ${i} not shown after reload`);
  if (i >= warmup) {
    toEvent.push((reloads[before] ?? Number.NaN) - saved);
    toLoad.push(done - saved);
  }
  // Let the no-op rebuild for the temporary file's removal pass before the next edit.
  await new Promise((r) => setTimeout(r, 400));
}

await browser.close();
server.kill('SIGINT');
await new Promise((r) => server.on('exit', r));
await rm(dir, { recursive: true, force: true });

const stats = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const median =
    s.length % 2
      ? s[(s.length - 1) / 2]
      : ((s[s.length / 2 - 1] ?? 0) + (s[s.length / 2] ?? 0)) / 2;
  return `median ${Math.round(median ?? 0)} ms, min ${Math.round(s[0] ?? 0)} ms, max ${Math.round(s.at(-1) ?? 0)} ms`;
};
console.log(
  `claimsite dev, bundled site, ${edits} edits of Toronto's description (after ${warmup} warm-up edits)`,
);
console.log(`  save to reload event in the page: ${stats(toEvent)}`);
console.log(`  save to reloaded page loaded:     ${stats(toLoad)}`);
