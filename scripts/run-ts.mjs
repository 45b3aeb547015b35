// Runs a TypeScript script (a benchmark, the load test) the way the CLI is built: bundled by
// esbuild with packages left external, then imported. Usage: node scripts/run-ts.mjs FILE [args]
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';

const [entry, ...args] = process.argv.slice(2);
if (!entry) {
  console.error('usage: node scripts/run-ts.mjs FILE [args]');
  process.exit(2);
}
const outDir = path.resolve('node_modules/.cache/claimsite-scripts');
await mkdir(outDir, { recursive: true });
const outfile = path.join(outDir, `${path.basename(entry, '.ts')}.mjs`);
await esbuild.build({
  entryPoints: [entry],
  outfile,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20',
  jsx: 'automatic',
  packages: 'external',
  logLevel: 'warning',
});
process.argv = [process.argv[0], outfile, ...args];
await import(pathToFileURL(outfile).href);
