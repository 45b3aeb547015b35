// `npm test`: the CLI compiled, formatting and lint, types, Chromium found, every test; each
// step's time and the whole command's printed at the end, so a slower run shows where it grew.
// Arguments go to Vitest (`npm test -- tests/urls.test.ts`, `npm test -- --full`).
import { spawnSync } from 'node:child_process';

const args = process.argv.slice(2);
const full = args.includes('--full');
const vitestArgs = args.filter((a) => a !== '--full');
const steps = [
  ['compile the CLI', 'node', ['scripts/build-cli.mjs']],
  ['format and lint', 'npx', ['biome', 'check', '.']],
  ['types', 'npx', ['tsc', '--noEmit']],
  ['find Chromium', 'node', ['scripts/ensure-chromium.mjs']],
  ['tests', 'npx', ['vitest', 'run', ...vitestArgs]],
];
const env = full ? { ...process.env, CLAIMSITE_TEST_FULL: '1' } : process.env;
const start = performance.now();
const times = [];
let code = 0;
for (const [name, cmd, argv] of steps) {
  const t = performance.now();
  const r = spawnSync(cmd, argv, { stdio: 'inherit', env });
  times.push([name, performance.now() - t]);
  code = r.status ?? 1;
  if (code !== 0) break;
}
const fmt = (ms) => `${(ms / 60_000) | 0} min ${((ms % 60_000) / 1000).toFixed(1)} s`;
console.log('');
for (const [name, ms] of times) console.log(`  ${name.padEnd(16)} ${fmt(ms)}`);
console.log(`npm test took ${fmt(performance.now() - start)}${code ? ' (failed)' : ''}`);
process.exit(code);
