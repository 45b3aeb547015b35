// Compiles the CLI (src/ and templates/) to lib/cli.js and lib/render-worker.js. Runs on `npm install` and before
// generate and test, so the bin always runs the current sources.
//
// The dependencies are bundled in: Node's module loader resolves, reads and links each of their
// several hundred files one by one, which took longer (about 350 ms) than everything else a
// small build does before its first page. esbuild stays external: it runs its own binary.
// React's production build is chosen at compile time, as bin/claimsite.js does at run time.
import { fileURLToPath } from 'node:url';
import * as esbuild from 'esbuild';

// Two entries: the CLI, and the render worker its builds start on other threads for large sites.
await esbuild.build({
  entryPoints: {
    cli: 'src/cli.ts',
    'render-worker': 'src/build/render-worker.ts',
    'write-worker': 'src/build/write-worker.ts',
  },
  outdir: 'lib',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  external: ['esbuild'],
  define: { 'process.env.NODE_ENV': '"production"' },
  // Bundled CommonJS packages call require() for Node's built-ins.
  banner: {
    js: "import { createRequire as __claimsiteRequire } from 'node:module'; const require = __claimsiteRequire(import.meta.url);",
  },
  sourcemap: 'linked',
  logLevel: 'warning',
});

// The browser script and stylesheet are code too: bundled now, so `generate` need not load esbuild.
const { writePrebuiltClient } = await import('../lib/cli.js');
await writePrebuiltClient(fileURLToPath(new URL('..', import.meta.url)));
