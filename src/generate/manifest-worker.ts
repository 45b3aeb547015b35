import { parentPort, workerData } from 'node:worker_threads';
import { readAndIndex } from './manifest-read.js';

// The thread that reads and indexes the last manifest (see manifest-read.ts) while the build
// loads its data. Its bytes and index are handed over, not copied.
const { file } = workerData as { file: string };
const read = readAndIndex(file);
const own = (b: ArrayBufferLike) => b as ArrayBuffer;
parentPort?.postMessage(
  read,
  read
    ? [
        ...(read.bytes.byteLength === read.bytes.buffer.byteLength ? [own(read.bytes.buffer)] : []),
        own(read.index.starts.buffer),
        own(read.index.slots.buffer),
      ]
    : [],
);
