import { parentPort, workerData } from 'node:worker_threads';
import { findFiles } from './files-found.js';

// The thread that checks which of the last build's files are still in the output folder (see
// files-found.ts), while the build plans.
const { outDir } = workerData as { outDir: string };
const result = findFiles(outDir);
parentPort?.postMessage(result, result ? [result.found.buffer as ArrayBuffer] : []);
