// Serve benchmark: requests per second of `claimsite serve` (its own handler: host rules,
// `_headers`, send, the precompressed files) against plain sirv (scripts/sirv-server.mjs) on the
// same built folder, for a city page sent as it is and compressed, side by side.
// Usage: npm run bench:serve -- [--runs N] [--duration S] [--connections C] [--page PATH]
// (defaults: 5 runs of 5 s each, 32 connections, /toronto/)
//
// The bundled site is built once with --precompress into a temporary folder (removed at the
// end). Each server is the real thing in a process of its own: `node bin/claimsite.cjs serve
// --no-api` (the compiled CLI, as the Docker recipe runs it) and sirv's. The load comes from wrk
// (Debian's package: `apt-get install wrk`), one thread, which takes less of the machine's two
// cores than any load generator in Node. Runs alternate between the servers, A B A B, so that a
// machine whose speed drifts (other work on it) moves both alike; the figure is each one's median
// requests per second, and the ratio the median of the pairs' ratios. Every case first checks
// that both servers answer 200 with the same bytes, decoded, and the encoding asked for.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { get } from 'node:http';
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
  },
});
const runs = Number(opts.runs);
const duration = Number(opts.duration);
const connections = Number(opts.connections);
const page = opts.page as string;

if (spawnSync('wrk', ['--version']).error) {
  console.error('wrk is not installed: apt-get install wrk (Debian), then run this again.');
  process.exit(2);
}

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
      for (const [i, s] of servers.entries()) rps[i]?.push(wrk(`${s.url}${page}`, c.encoding));
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
    `\n${page} of the bundled site, ${runs} runs of ${duration} s each, ${connections} connections (wrk, 1 thread), ${os.cpus().length} cores, Node ${process.version}; requests per second, medians:\n`,
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

/** Requests per second of one wrk run. */
function wrk(url: string, encoding: string | null): number {
  const args = [
    '-t1',
    `-c${connections}`,
    `-d${duration}s`,
    ...(encoding ? ['-H', `Accept-Encoding: ${encoding}`] : []),
    url,
  ];
  const r = spawnSync('wrk', args, { encoding: 'utf8' });
  const rps = /Requests\/sec:\s+([\d.]+)/.exec(r.stdout)?.[1];
  const errors = /Non-2xx or 3xx responses: (\d+)/.exec(r.stdout)?.[1];
  if (!rps || errors) throw new Error(`wrk failed on ${url}:\n${r.stdout}${r.stderr}`);
  return Number(rps);
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
