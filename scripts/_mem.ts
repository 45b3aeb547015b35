import { loadInputs } from '../src/generate/inputs.js';
import { planBuild } from '../src/generate/plan.js';

const g = (globalThis as { gc?: () => void }).gc;
const heap = (label: string) => {
  g?.();
  console.log(
    label.padEnd(12),
    (process.memoryUsage().heapUsed / 1048576).toFixed(1),
    'MB heap',
    (process.memoryUsage().rss / 1048576).toFixed(0),
    'rss',
  );
};
heap('start');
const inputs = await loadInputs({ dataDir: process.argv[2] ?? 'data', codeVersion: 'm' });
heap('inputs');
const plan = planBuild(inputs, null);
console.log('pages', plan.files.count, 'indexable', plan.indexable.length);
heap('plan');
(globalThis as { keep?: unknown }).keep = [inputs, plan];
