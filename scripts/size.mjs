// Prints what a visitor downloads: the browser script, the stylesheet and the HTML pages of a
// built site, raw and gzipped, against the script budget (8 KB gzip on any page).
// Usage: npm run size [-- dist]
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

const dir = process.argv[2] ?? 'dist';
const BUDGET = 8 * 1024;
const kb = (n) => `${(n / 1024).toFixed(1)} KB`;
const gz = (b) => gzipSync(b, { level: 9 }).length;

const assets = await readdir(path.join(dir, 'assets'));
const rows = [];
// Share images are fetched by the sites a link is shared on, not by visitors: summed up below.
const shares = assets.filter((n) => n.startsWith('share-'));
for (const name of assets.filter((n) => !shares.includes(n)).sort()) {
  const bytes = await readFile(path.join(dir, 'assets', name));
  rows.push([`assets/${name}`, bytes.length, gz(bytes)]);
}
const html = [];
for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
  if (e.isFile() && e.name.endsWith('.html')) html.push(path.join(e.parentPath, e.name));
}
const sizes = await Promise.all(html.map(async (f) => ({ f, raw: (await readFile(f)).length })));
sizes.sort((a, b) => a.raw - b.raw);
const median = sizes[Math.floor(sizes.length / 2)];
const largest = sizes.at(-1);
for (const s of [median, largest])
  rows.push([
    `${path.relative(dir, s.f)} (${s === median ? 'median' : 'largest'} page)`,
    s.raw,
    gz(await readFile(s.f)),
  ]);

const width = Math.max(...rows.map((r) => r[0].length));
console.log(`${'file'.padEnd(width)}  ${'raw'.padStart(9)}  ${'gzip'.padStart(9)}`);
for (const [name, raw, zipped] of rows)
  console.log(`${name.padEnd(width)}  ${kb(raw).padStart(9)}  ${kb(zipped).padStart(9)}`);
console.log(`${html.length} HTML pages`);
if (shares.length > 0) {
  let bytes = 0;
  for (const name of shares) bytes += (await readFile(path.join(dir, 'assets', name))).length;
  console.log(
    `${shares.length} share images (og:image, 1200x630 PNG), ${kb(bytes / shares.length)} each on average`,
  );
}

const script = rows.filter((r) => /^assets\/app\..*\.js$/.test(r[0])).reduce((n, r) => n + r[2], 0);
console.log(
  `Script on every page: ${kb(script)} gzip of a ${kb(BUDGET)} budget (${Math.round((script / BUDGET) * 100)}%)`,
);
if (script > BUDGET) {
  console.error('Over budget.');
  process.exitCode = 1;
}
