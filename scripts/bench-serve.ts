// Serve benchmark: requests per second of `claimsite serve` (its own handler: host rules,
// `_headers`, send, the precompressed files) against plain sirv (scripts/sirv-server.mjs) on the
// same built folder, for a city page sent as it is and compressed, side by side.
// Usage: npm run bench:serve -- [--runs N] [--duration S] [--connections C] [--page PATH]
// (defaults: 5 runs of 5 s each, 32 connections, /toronto/)
//
// The bundled site is built once with --precompress into a temporary folder (removed at the
// end). Each server is the real thing in a process of its own: `node bin/claimsite.cjs serve
// --no-api` (the compiled CLI, as the Docker recipe runs it) and sirv's. The load comes from a
// process of its own (this script run with --load): C kept-alive connections (http.Agent), each
// sending its next request as soon as the last answer has been read whole. Runs alternate
// between the servers, A B A B, so that a machine whose speed drifts (other work on it) moves
// both alike; the figure is each one's median requests per second, and the ratio the median of
// the pairs' ratios. Every case first checks that both servers answer 200 with the same bytes,
// decoded, and the encoding asked for.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { Agent, get } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';

const { values: opts } = parseArgs({
  args: process.argv.slice(2),
  options: {
    runs: { type: 'string', default: '5' },
    duration: { type: 'string', default: '5' },
    connections: { type: 'string', default: '32' },
    page: { type: 'string', default: '/toronto/' },
    load: { type: 'string' },
    encoding: { type: 'string', default: '' },
  },
});
if (opts.load) {
  // The load process: prints its requests per second and exits.
  const rps = await load(
    opts.load,
    opts.encoding || null,
    Number(opts.connections),
    Number(opts.duration),
  );
  process.stdout.write(`${rps}\n`);
  process.exit(0);
}
const runs = Number(opts.runs);
const duration = Number(opts.duration);
const connections = Number(opts.connections);
const page = opts.page as string;

const root = process.cwd();
const bin = path.join(root, 'bin/claimsite.cjs');
const tmp = await mkdtemp(path.join(os.tmpdir(), 'claimsite-bench-serve-'));
const dist = path.join(tmp, 'dist');
const children: ChildProcess[] = [];

try {
  console.log('Building the bundled site with --precompress…');
  const built = spawnSync(
    process.execPath,
    [bin, 'generate', '--out', dist, '--quiet', '--no-audit', '--precompress'],
    { cwd: root, stdio: 'inherit' },
  );
  if (built.status !== 0) throw new Error('the build failed');

  // Each on a free port, read from the line it prints when it listens.
  const servers = [
    {
      name: 'claimsite serve',
      url: '',
      args: [bin, 'serve', '--dir', dist, '--port', '0', '--no-api'],
    },
    { name: 'sirv', url: '', args: [path.join(root, 'scripts/sirv-server.mjs'), dist, '0'] },
  ];
  for (const s of servers) {
    const child = spawn(process.execPath, s.args, {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    children.push(child);
    s.url = await new Promise<string>((resolve, reject) => {
      child.stdout?.on('data', (c: Buffer) => {
        const at = /at (http:\/\/[\d.]+:\d+)/.exec(c.toString())?.[1];
        if (at) resolve(at);
      });
      child.once('exit', (code) => reject(new Error(`${s.name} exited (${code})`)));
    });
  }

  const cases = [
    { label: 'as it is', encoding: null },
    { label: 'brotli', encoding: 'br' },
    { label: 'gzip', encoding: 'gzip' },
  ] as const;
  const rows: string[][] = [];
  for (const c of cases) {
    const headers: Record<string, string> = c.encoding ? { 'Accept-Encoding': c.encoding } : {};
    const bodies = [];
    for (const s of servers)
      bodies.push(await check(`${s.url}${page}`, headers, c.encoding, s.name));
    if (!bodies[0]?.plain.equals(bodies[1]?.plain ?? Buffer.alloc(0)))
      throw new Error(`${page} (${c.label}): the two servers sent different pages`);
    const rps: number[][] = servers.map(() => []);
    for (let run = 0; run < runs; run++)
      for (const [i, s] of servers.entries()) rps[i]?.push(loadRun(`${s.url}${page}`, c.encoding));
    const [ours = [], theirs = []] = rps;
    const ratios = ours.map((r, i) => r / (theirs[i] ?? Number.NaN));
    rows.push([
      c.label,
      whole(bodies[0]?.sent ?? 0),
      whole(median(ours)),
      whole(median(theirs)),
      median(ratios).toFixed(2),
      `${whole(Math.min(...ours))}-${whole(Math.max(...ours))}`,
      `${whole(Math.min(...theirs))}-${whole(Math.max(...theirs))}`,
    ]);
  }
  console.log(
    `\n${page} of the bundled site, ${runs} runs of ${duration} s each, ${connections} kept-alive connections, ${os.cpus().length} cores, Node ${process.version}; requests per second, medians:\n`,
  );
  table(
    [
      'encoding',
      'bytes sent',
      'claimsite serve',
      'sirv',
      'serve/sirv',
      'serve min-max',
      'sirv min-max',
    ],
    rows,
  );
} finally {
  for (const child of children) child.kill();
  await rm(tmp, { recursive: true, force: true });
}

/** One GET: the status must be 200 and the encoding the one asked for; the page decoded. */
async function check(
  url: string,
  headers: Record<string, string>,
  encoding: string | null,
  name: string,
) {
  // node:http, not fetch, which decodes what it receives.
  const res = await new Promise<{ status: number; got: string | undefined; sent: Buffer }>(
    (resolve, reject) =>
      // A connection of its own: a kept-alive one from the last case would be closed by now.
      get(url, { headers, agent: false }, (r) => {
        const chunks: Buffer[] = [];
        r.on('data', (c: Buffer) => chunks.push(c));
        r.on('end', () =>
          resolve({
            status: r.statusCode ?? 0,
            got: r.headers['content-encoding'],
            sent: Buffer.concat(chunks),
          }),
        );
      }).on('error', (err) => reject(new Error(`${name}: GET ${url}: ${err.message}`))),
  );
  const { status, got, sent } = res;
  if (status !== 200 || (got ?? null) !== encoding)
    throw new Error(
      `${name} answered ${url} with ${status}, encoding ${got} (asked for ${encoding})`,
    );
  const plain =
    encoding === 'br' ? brotliDecompressSync(sent) : encoding === 'gzip' ? gunzipSync(sent) : sent;
  return { sent: sent.length, plain };
}

/** Requests per second of one run, from a load process of its own. */
function loadRun(url: string, encoding: string | null): number {
  const r = spawnSync(
    process.execPath,
    [
      ...process.execArgv,
      process.argv[1] ?? '',
      '--load',
      url,
      '--encoding',
      encoding ?? '',
      '--connections',
      String(connections),
      '--duration',
      String(duration),
    ],
    { encoding: 'utf8' },
  );
  const rps = Number(r.stdout.trim().split('\n').at(-1));
  if (r.status !== 0 || !Number.isFinite(rps))
    throw new Error(`the load failed on ${url}:\n${r.stderr}`);
  return rps;
}

/**
 * `connections` loops, each on a kept-alive connection of its own, requesting `url` again as soon
 * as its last answer has been read whole, for `seconds` (after a first second not counted); any
 * answer but 200 stops the run.
 */
async function load(url: string, encoding: string | null, connections: number, seconds: number) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const headers: Record<string, string> = encoding ? { 'Accept-Encoding': encoding } : {};
  const one = () =>
    new Promise<void>((resolve, reject) => {
      get(url, { agent, headers }, (res) => {
        if (res.statusCode !== 200) reject(new Error(`${url} answered ${res.statusCode}`));
        res.on('data', () => {});
        res.on('end', resolve);
      }).on('error', reject);
    });
  const warmUntil = performance.now() + 1000;
  const endAt = warmUntil + seconds * 1000;
  let counted = 0;
  await Promise.all(
    Array.from({ length: connections }, async () => {
      for (let now = performance.now(); now < endAt; now = performance.now()) {
        await one();
        if (now >= warmUntil) counted++;
      }
    }),
  );
  agent.destroy();
  return counted / seconds;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2
    ? (sorted[mid] as number)
    : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function whole(n: number): string {
  return Math.round(n).toLocaleString('en-US');
}

function table(head: string[], rows: string[][]) {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: string[]) =>
    `| ${cells.map((c, i) => c.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  console.log(line(head));
  console.log(`| ${widths.map((w) => '-'.repeat(w)).join(' | ')} |`);
  for (const r of rows) console.log(line(r));
}
