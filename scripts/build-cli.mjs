// Compiles the CLI (src/ and templates/) to lib/cli.js. Runs on `npm install` and before
// generate and test, so the bin always runs the current sources.
import * as esbuild from 'esbuild';

await esbuild.build({
  entryPoints: ['src/cli.ts'],
  outfile: 'lib/cli.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  packages: 'external',
  sourcemap: 'linked',
  logLevel: 'warning',
});
