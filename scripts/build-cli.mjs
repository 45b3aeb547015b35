// Compiles the CLI (src/ and templates/) to lib/cli.cjs, and its worker threads to lib/*-worker.js.
// Runs on `npm install` and before generate and test, so the bin always runs the current sources.
//
// The dependencies are bundled in: Node's module loader resolves, reads and links each of their
// several hundred files one by one, which took longer (about 350 ms) than everything else a
// small build does before its first page. esbuild stays external: it runs its own binary.
// React's production build is chosen at compile time, as bin/claimsite.cjs does at run time.
//
// The CLI is CommonJS so that bin/claimsite.cjs can load it with V8's code cache (Node 20 has no
// compile cache for modules, and src/code-cache.ts is that loader, CommonJS too, so that no ES
// module loader starts); the workers are small or rarely started, and stay ES modules.
import { mkdir, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  jsx: 'automatic',
  external: ['esbuild'],
  sourcemap: 'linked',
  logLevel: 'warning',
};
const production = { 'process.env.NODE_ENV': '"production"' };

// What an older build left, and the code cache of the CLI it replaces.
await rm('lib', { recursive: true, force: true });
await mkdir('lib');

await esbuild.build({
  ...common,
  entryPoints: { cli: 'src/cli.ts', 'code-cache': 'src/code-cache.ts' },
  outExtension: { '.js': '.cjs' },
  outdir: 'lib',
  format: 'cjs',
  define: { ...production, 'import.meta.url': '__claimsiteUrl' },
  banner: { js: "const __claimsiteUrl = require('node:url').pathToFileURL(__filename).href;" },
});
await esbuild.build({
  ...common,
  entryPoints: {
    'render-worker': 'src/build/render-worker.ts',
    'write-worker': 'src/build/write-worker.ts',
  },
  outdir: 'lib',
  format: 'esm',
  define: production,
  // Bundled CommonJS packages call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __claimsiteRequire } from 'node:module'; const require = __claimsiteRequire(import.meta.url);",
  },
});

// The browser script and stylesheet are code too: bundled now, so `generate` need not load esbuild.
const { writePrebuiltClient } = createRequire(import.meta.url)('../lib/cli.cjs');
await writePrebuiltClient(fileURLToPath(new URL('..', import.meta.url)));
