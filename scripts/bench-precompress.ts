// Precompression benchmark: what `generate --precompress` costs in build time and output, at 1x
// (the bundled site) and 10x (scripts/scaled-data.ts), against the same build without it.
// Usage: npm run bench:precompress -- [--runs N] [--only 1x|10x]
// (defaults: 5 runs at 1x, 3 at 10x, each after a warm-up; never 100x)
//
// Times come from farm-bench (on PATH here), which runs the two commands in turn, A B A B, and
// prints min, median and max of each and of the ratio A/B pair by pair: A is the build with
// --precompress, B without, each a whole `node bin/claimsite.cjs generate --quiet --no-audit`
// process. Full builds go into a new folder each run (made by mktemp inside the command), so
// nothing is deleted between timed runs (on this machine creating files is slower for minutes
// after tens of thousands were deleted); the temporary folder goes at the very end. The
// incremental runs edit one city's description (a tiny node process, in both commands) and
// build again into the folder of a full build of each kind. Share images are drawn once by an
// untimed build first, so that every timed build copies them from the cache as a site owner's
// second build does. Sizes are counted on one build of each kind: files, bytes, and what the
// compressed forms weigh against their files.
import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readdir, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { scaledData } from './scaled-data.js';

const { values: opts } = parseArgs({
  args: process.argv.slice(2),
  options: { runs: { type: 'string' }, only: { type: 'string' } },
});

if (spawnSync('farm-bench', ['--help']).error) {
  console.error('farm-bench is not on PATH: this benchmark times its builds with it.');
  process.exit(2);
}

const root = process.cwd();
const bin = path.join(root, 'bin/claimsite.cjs');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'claimsite-bench-precompress-'));
const summary: string[] = [];

try {
  for (const [label, times, runs] of [
    ['1x', 1, 5],
    ['10x', 10, 3],
  ] as const) {
    if (opts.only && opts.only !== label) continue;
    const n = opts.runs ? Number(opts.runs) : runs;
    const dir = path.join(tmp, label);
    const data = path.join(dir, 'data');
    await scaledData(path.join(root, 'data'), data, times);
    const builds = path.join(dir, 'builds');
    await mkdir(builds, { recursive: true });
    const generate = (out: string, precompress: boolean) =>
      `exec node ${bin} generate --data ${data} --out ${out} --quiet --no-audit${precompress ? ' --precompress' : ''}`;
    // A new folder each run: the command, as sh runs it.
    const fresh = (precompress: boolean) =>
      generate(`"$(mktemp -d -p ${builds})/dist"`, precompress);

    console.log(`\n== ${label}: drawing the share images once (untimed)…`);
    run(`node ${bin} generate --data ${data} --out ${path.join(dir, 'first')} --quiet --no-audit`);

    console.log(`\n== ${label}: a full build into a new folder, A with --precompress, B without`);
    const full = farmBench(n, fresh(true), fresh(false));

    // One build of each kind, kept for the sizes and rebuilt by the incremental runs.
    const withForms = path.join(dir, 'with');
    const without = path.join(dir, 'without');
    run(generate(withForms, true));
    run(generate(without, false));
    const sizes = { with: await sizesOf(withForms), without: await sizesOf(without) };

    // Each incremental run edits a city's description, so that its pages change every run.
    const editor = path.join(dir, 'edit.cjs');
    await writeFile(editor, editScript(path.join(data, 'cities/on.json')));
    const edited = (out: string, precompress: boolean) =>
      `node ${editor} && ${generate(out, precompress)}`;
    console.log(
      `\n== ${label}: one city's description edited, rebuilt in place, A with, B without`,
    );
    const incremental = farmBench(n, edited(withForms, true), edited(without, false));

    const share = (sizes.with.formBytes.br / sizes.with.compressibleBytes) * 100;
    const gzShare = (sizes.with.formBytes.gz / sizes.with.compressibleBytes) * 100;
    summary.push(
      `${label}: full build ${full.a} s with, ${full.b} s without (ratio ${full.ratio}); incremental ${incremental.a} s with, ${incremental.b} s without (ratio ${incremental.ratio}); ` +
        `files ${sizes.with.files.toLocaleString('en-US')} with, ${sizes.without.files.toLocaleString('en-US')} without; ` +
        `bytes ${mb(sizes.with.bytes)} with, ${mb(sizes.without.bytes)} without; ` +
        `brotli ${share.toFixed(1)}% and gzip ${gzShare.toFixed(1)}% of the ${mb(sizes.with.compressibleBytes)} of HTML, CSS, JS, XML and SVG`,
    );
  }
  console.log(
    `\nMedians (wall seconds; ratio A/B, the median of the pairs):\n${summary.join('\n')}`,
  );
} finally {
  await rm(tmp, { recursive: true, force: true });
}

/** Runs a shell command, or throws with what it printed. */
function run(command: string): void {
  const r = spawnSync('sh', ['-c', command], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`${command} failed:\n${r.stdout}${r.stderr}`);
}

/**
 * farm-bench's table for the shell commands A against B (no single quote in them: B is given
 * as one string that farm-bench splits as a shell does), printed, and its median wall times and
 * A/B ratio.
 */
function farmBench(runs: number, a: string, b: string) {
  const r = spawnSync(
    'farm-bench',
    [
      '-n',
      String(runs),
      '--warmup',
      '1',
      '--timeout',
      '3000',
      '--vs',
      `sh -c '${b}'`,
      '--',
      'sh',
      '-c',
      a,
    ],
    { encoding: 'utf8' },
  );
  process.stdout.write(r.stdout + r.stderr);
  const median = (row: string) =>
    new RegExp(`^${row.replace('/', '\\/')}\\s+[\\d.]+\\s+([\\d.]+)`, 'm').exec(r.stdout)?.[1] ??
    '?';
  return { a: median('A wall s'), b: median('B wall s'), ratio: median('A/B wall') };
}

/** Files and bytes of a built folder, and of its compressed forms against their files. */
async function sizesOf(dir: string) {
  let files = 0;
  let bytes = 0;
  let compressibleBytes = 0;
  const formBytes = { br: 0, gz: 0 };
  for (const e of await readdir(dir, { recursive: true, withFileTypes: true })) {
    if (!e.isFile()) continue;
    const size = (await stat(path.join(e.parentPath, e.name))).size;
    files++;
    bytes += size;
    if (/\.(html|css|js|mjs|xml|svg)$/.test(e.name)) compressibleBytes += size;
    if (e.name.endsWith('.br')) formBytes.br += size;
    if (e.name.endsWith('.gz')) formBytes.gz += size;
  }
  return { files, bytes, compressibleBytes, formBytes };
}

function mb(n: number): string {
  return `${(n / 1e6).toFixed(1)} MB`;
}

/** A script that gives the first city of a cities file a description it has not had. */
function editScript(file: string): string {
  return `const fs = require('node:fs');
const cities = JSON.parse(fs.readFileSync(${JSON.stringify(file)}, 'utf8'));
cities[0].description = 'Edited for the benchmark at ' + process.hrtime.bigint() + '.';
fs.writeFileSync(${JSON.stringify(file)}, JSON.stringify(cities, null, 2));
`;
}
