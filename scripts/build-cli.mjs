// Compiles the CLI (src/ and templates/) to lib/cli.cjs, its worker threads to lib/*-worker.js and
// the lead endpoint's entry points to lib/lead/. Runs before `npm pack` (prepack: the package
// ships lib/, with nothing to compile as it installs), and in a checkout before generate and test
// and whenever bin/claimsite.cjs finds the sources changed, so the bin runs the current sources.
//
// It compiles into a folder of its own and swaps it in only when everything compiled: a typo in a
// template reports the error and leaves the last good lib/ to run. When lib/ was compiled from
// exactly the current sources (their hash is kept in lib/.sources; what they are is
// scripts/cli-sources.cjs's), it does nothing, so `npm run generate` starts at once; `--force`
// compiles anyway.
//
// The dependencies are bundled in: Node's module loader resolves, reads and links each of their
// several hundred files one by one, which took longer than everything else a
// small build does before its first page. esbuild stays external: it runs its own binary.
// React's production build is chosen at compile time, as bin/claimsite.cjs does at run time.
//
// The CLI is CommonJS so that bin/claimsite.cjs can load it with V8's code cache (Node 20 has no
// compile cache for modules, and src/code-cache.ts is that loader, CommonJS too, so that no ES
// module loader starts); the workers are small or rarely started, and stay ES modules.
import { createHash } from 'node:crypto';
import {
  existsSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';
import { latin1Source } from './latin1-source.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
const lib = path.join(root, 'lib');
const { STAMP, sourcesHash } = createRequire(import.meta.url)('./cli-sources.cjs');

// The stamp's time is when the hash was taken: a source saved while this compiles is newer, and
// bin/claimsite.cjs finds it (see cli-sources.cjs).
const hashedAt = new Date();
const sources = sourcesHash(root);
const current = (() => {
  try {
    return readFileSync(path.join(lib, STAMP), 'utf8') === sources;
  } catch {
    return false;
  }
})();
if (current && !process.argv.includes('--force')) {
  utimesSync(path.join(lib, STAMP), hashedAt, hashedAt);
  process.exit(0);
}

const next = path.join(root, `lib.next-${process.pid}`);
rmSync(next, { recursive: true, force: true });

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  // resvg, sharp (owner photos) and libsql (the lead store's SQLite) are native modules, and pg
  // (its PostgreSQL) loads its optional native driver by name: all are loaded from node_modules,
  // which a deployment therefore keeps (the Dockerfile's runtime stage does). opentype.js loads
  // only when a share image is drawn.
  external: ['esbuild', '@resvg/resvg-js', 'opentype.js', 'libsql', 'pg', 'sharp'],
  sourcemap: 'linked',
  logLevel: 'warning',
  absWorkingDir: root,
};
// What draws share images, hashed into the bundle: their names depend on it, and a build need
// not hash it again (the same files and libraries as DRAWING_SOURCES and DRAWING_LIBRARIES in
// src/share/share-images.ts; tests/share-images.test.ts checks the two agree).
const drawing = (() => {
  const hash = createHash('sha256');
  for (const file of [
    'src/share/cards.ts',
    'src/share/draw.ts',
    'src/share/png.ts',
    'src/share/share-images.ts',
    'src/share/woff.ts',
    'src/site/shield.ts',
    'src/site/theme.ts',
  ])
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)));
  const require = createRequire(path.join(root, 'package.json'));
  for (const name of [
    '@fontsource/inter',
    '@fontsource/source-sans-3',
    '@fontsource/atkinson-hyperlegible',
    '@fontsource/merriweather',
    '@resvg/resvg-js',
    'opentype.js',
  ]) {
    const { version } = JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8'));
    hash.update(`${name}@${version}\0`);
  }
  return hash.digest('hex').slice(0, 16);
})();
const production = {
  'process.env.NODE_ENV': '"production"',
  __CLAIMSITE_DRAWING__: JSON.stringify(drawing),
};

try {
  await esbuild.build({
    ...common,
    entryPoints: { cli: 'src/cli.ts', 'code-cache': 'src/code-cache.ts' },
    outExtension: { '.js': '.cjs' },
    outdir: next,
    format: 'cjs',
    define: { ...production, 'import.meta.url': '__claimsiteUrl' },
    banner: { js: "const __claimsiteUrl = require('node:url').pathToFileURL(__filename).href;" },
  });
  await esbuild.build({
    ...common,
    entryPoints: {
      'render-worker': 'src/generate/render-worker.ts',
      'write-worker': 'src/generate/write-worker.ts',
      'files-worker': 'src/generate/files-worker.ts',
      'manifest-worker': 'src/generate/manifest-worker.ts',
      'draw-worker': 'src/share/draw-worker.ts',
    },
    outdir: next,
    format: 'esm',
    define: production,
    // Bundled CommonJS packages call require() for Node's built-ins.
    banner: {
      js: "import { createRequire as __claimsiteRequire } from 'node:module'; const require = __claimsiteRequire(import.meta.url);",
    },
  });
  // The lead endpoint's entry points for a site folder's hosts (package.json `exports`:
  // claimsite/lead/netlify, claimsite/lead/node), ES modules that import their packages from
  // node_modules, as the host's own bundler (Netlify's esbuild) or Node resolves them. Split, so
  // that the database drivers a Node store loads by a dynamic import stay out of what Netlify's
  // function imports.
  await esbuild.build({
    ...common,
    entryPoints: { 'lead/netlify': 'src/lead/netlify.ts', 'lead/node': 'src/lead/node-api.ts' },
    outdir: next,
    outExtension: { '.js': '.mjs' },
    chunkNames: 'lead/chunks/[name]-[hash]',
    format: 'esm',
    splitting: true,
    packages: 'external',
    sourcemap: false,
    define: { 'process.env.NODE_ENV': '"production"' },
  });
  // V8 keeps a source of Latin-1 characters at one byte a character (see latin1-source.mjs).
  for (const file of readdirSync(next).filter((f) => /\.c?js$/.test(f))) {
    const text = readFileSync(path.join(next, file), 'utf8');
    const latin1 = latin1Source(text);
    if (latin1 !== text) writeFileSync(path.join(next, file), latin1);
  }
  // The browser script and stylesheet are code too: bundled now, so `generate` need not load esbuild.
  const { writePrebuiltClient } = createRequire(import.meta.url)(path.join(next, 'cli.cjs'));
  await writePrebuiltClient(root, next);
  writeFileSync(path.join(next, STAMP), sources);
  utimesSync(path.join(next, STAMP), hashedAt, hashedAt);
} catch (err) {
  rmSync(next, { recursive: true, force: true });
  // esbuild has printed what failed and where; the last good lib/ stays.
  if (!(err && Array.isArray(err.errors))) console.error(err);
  console.error(
    `The CLI did not compile; ${existsSync(lib) ? 'lib/ is left as it was' : 'there is no lib/ yet'}.`,
  );
  process.exit(1);
}

// lib/ is replaced whole (with the code cache of the bundle it held), in two renames. Another
// compile of the same checkout may swap its own in meanwhile (two commands started at once): if
// it compiled these same sources, its lib/ is as good as this one.
const old = path.join(root, `lib.old-${process.pid}`);
try {
  if (existsSync(lib)) renameSync(lib, old);
  renameSync(next, lib);
} catch (err) {
  rmSync(next, { recursive: true, force: true });
  const theirs = existsSync(path.join(lib, STAMP)) && readFileSync(path.join(lib, STAMP), 'utf8');
  if (theirs !== sources) throw err;
}
rmSync(old, { recursive: true, force: true });
