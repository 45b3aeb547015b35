import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { BlobsServer } from '@netlify/blobs/server';
import * as esbuild from 'esbuild';
import { parse } from 'smol-toml';
import { ROOT, runCli, tempDir } from './helpers.js';

/** A command in a folder: its output and exit code. */
export function sh(cwd: string, command: string, args: string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(command, args, {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, ...env },
    maxBuffer: 64 * 1024 * 1024,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

/**
 * claimsite as `npm pack` makes it (its `prepack` compiles lib/ first, if the sources changed),
 * in dir: the tarball's path.
 */
export async function packClaimsite(dir: string): Promise<string> {
  execFileSync('npm', ['pack', '--pack-destination', dir], { cwd: ROOT, stdio: 'ignore' });
  const name = (await readdir(dir)).find((f) => /^claimsite-.*\.tgz$/.test(f));
  if (!name) throw new Error(`npm pack left no tarball in ${dir}`);
  return path.join(dir, name);
}

/**
 * A lockfile for a site that depends on claimsite's packed tarball: claimsite's own locked
 * dependencies (those it installs with, not its dev tools), so that npm installs them offline
 * from its cache, as the repository's own `npm ci` left it. npm's cache holds the packages'
 * tarballs, not the registry's lists of versions, so without a lockfile it would ask the registry.
 */
export async function writeSiteLock(site: string, tarball: string) {
  const own = JSON.parse(await readFile(path.join(ROOT, 'package.json'), 'utf8'));
  const lock = JSON.parse(await readFile(path.join(ROOT, 'package-lock.json'), 'utf8'));
  const pkg = JSON.parse(await readFile(path.join(site, 'package.json'), 'utf8'));
  const packages: Record<string, unknown> = {
    '': { name: pkg.name, dependencies: pkg.dependencies },
    'node_modules/claimsite': {
      version: own.version,
      resolved: pkg.dependencies.claimsite,
      integrity: `sha512-${createHash('sha512')
        .update(await readFile(tarball))
        .digest('base64')}`,
      dependencies: own.dependencies,
      bin: own.bin,
      engines: own.engines,
    },
  };
  for (const [at, entry] of Object.entries(lock.packages as Record<string, { dev?: boolean }>))
    if (at && !entry.dev) packages[at] = entry;
  await writeFile(
    path.join(site, 'package-lock.json'),
    `${JSON.stringify({ name: pkg.name, lockfileVersion: 3, requires: true, packages }, null, 2)}\n`,
  );
}

/** npm install as a build host runs it (with no install script), offline, from the lockfile. */
export const npmInstall = (site: string, ...extra: string[]) =>
  sh(site, 'npm', ['install', '--offline', '--no-audit', '--no-fund', ...extra]);

/**
 * A site folder made by `init` (the repository's CLI) with claimsite installed in it from the
 * packed tarball: its path, and the output of `init` and of the install.
 */
export async function installedSite(
  dir: string,
  tarball: string,
  name = 'site',
  ...args: string[]
) {
  const init = runCli(['init', name, '--claimsite', `file:${tarball}`, ...args], { cwd: dir });
  if (init.code !== 0) throw new Error(`init failed: ${init.stderr}`);
  const site = path.join(dir, name);
  await writeSiteLock(site, tarball);
  const install = npmInstall(site, '--ignore-scripts');
  if (install.code !== 0) throw new Error(`npm install failed: ${install.err}`);
  return { site, init, install };
}

/**
 * Takes out of a site folder's data what marks it as sample (site.json's `sample` list, and each
 * record's `"sample": true`), as an owner does once each is replaced: the publishing build
 * (`generate --strict`) then has nothing to refuse.
 */
export async function markNothingSample(site: string) {
  const data = path.join(site, 'data');
  for (const rel of await readdir(data, { recursive: true })) {
    if (!rel.endsWith('.json')) continue;
    const file = path.join(data, rel);
    const text = await readFile(file, 'utf8');
    if (!text.includes('"sample"')) continue;
    await writeFile(file, `${JSON.stringify(unmarked(JSON.parse(text)), null, 2)}\n`);
  }
}

function unmarked(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(unmarked);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .filter(([key]) => key !== 'sample')
      .map(([key, v]) => [key, unmarked(v)]),
  );
}

/**
 * A site folder's Netlify function bundled as Netlify bundles it (zip-it-and-ship-it's esbuild
 * bundler): one ES module for node, its imports resolved from the site folder, `require`,
 * `__filename` and `__dirname` defined by a banner, for the Node version netlify.toml names.
 * The bundle's file, and the files esbuild read for it (relative to the site folder).
 */
export async function netlifyBundle(site: string, fn: string) {
  const toml = parse(await readFile(path.join(site, 'netlify.toml'), 'utf8')) as {
    build: { environment: { NODE_VERSION: string } };
    functions: { directory: string };
  };
  const out = await tempDir('claimsite-zisi-');
  const result = await esbuild.build({
    absWorkingDir: site,
    entryPoints: [path.join(site, toml.functions.directory, fn)],
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: [`node${toml.build.environment.NODE_VERSION}`],
    outdir: out,
    outExtension: { '.js': '.mjs' },
    resolveExtensions: ['.js', '.jsx', '.mjs', '.cjs', '.ts', '.tsx', '.mts', '.cts', '.json'],
    banner: {
      js: [
        'import { createRequire as __netlifyRequire } from "module";',
        'import { fileURLToPath as __netlifyPath } from "url";',
        'import { dirname as __netlifyDirname } from "path";',
        'let __filename = __netlifyPath(import.meta.url);',
        'let __dirname = __netlifyDirname(__filename);',
        'let require = __netlifyRequire(import.meta.url);',
      ].join('\n'),
    },
    metafile: true,
    logLevel: 'silent',
  });
  return { file: path.join(out, fn), inputs: Object.keys(result.metafile.inputs) };
}

/**
 * The environment Netlify gives a function, in this process: the site's variables, and Netlify
 * Blobs (NETLIFY_BLOBS_CONTEXT) served by the package's own local server, which the caller stops.
 */
export async function netlifyEnvironment(variables: Record<string, string>) {
  const token = 'blobs-token';
  const blobs = new BlobsServer({ directory: await tempDir('claimsite-blobs-'), token });
  const { port } = await blobs.start();
  const edge = `http://localhost:${port}`;
  Object.assign(process.env, variables, {
    NETLIFY_BLOBS_CONTEXT: Buffer.from(
      JSON.stringify({ edgeURL: edge, uncachedEdgeURL: edge, siteID: 'site-1', token }),
    ).toString('base64'),
  });
  delete process.env.SITE_ORIGIN;
  delete process.env.LEAD_OUTBOX_PATH;
  return blobs;
}
