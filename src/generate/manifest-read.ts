import { statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { isCompiled } from '../root.js';
import {
  indexManifest,
  type ManifestIndex,
  manifestFile,
  PreviousManifest,
  readStamped,
} from './manifest.js';

/**
 * From a last manifest this large, a thread reads and indexes it while the build loads its data:
 * at 100x (34 MB, 384,568 lines) that was 0.3 s of a one-city edit's 4.8 on the build's thread.
 * Below, the thread's start costs about what the read does.
 */
export const MANIFEST_THREAD_MIN_BYTES = 2 << 20;

/** The compiled thread, beside the compiled CLI (scripts/build-cli.mjs makes it). */
const WORKER = new URL('./manifest-worker.js', import.meta.url);

/** What the thread sends back: the file's bytes and stamp, and the index of its text. */
type ManifestRead = { bytes: Uint8Array; stamp: string; index: ManifestIndex } | null;

/**
 * The last build's manifest (see PreviousManifest.read), read on a thread of its own when it is
 * large and the CLI is compiled, else here. Call `recoverOutput` first: a commit it completes
 * puts a new manifest in place. A thread that fails fails the build, as the files thread does.
 */
export function readPreviousManifest(outDir: string): Promise<PreviousManifest | null> {
  const file = manifestFile(outDir);
  const size = statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  if (!isCompiled() || availableParallelism() < 2 || size < MANIFEST_THREAD_MIN_BYTES)
    return Promise.resolve(PreviousManifest.read(outDir));
  const result = new Promise<PreviousManifest | null>((resolve, reject) => {
    const worker = new Worker(WORKER, { workerData: { file } });
    worker.once('message', (read: ManifestRead) => {
      if (!read) return resolve(null);
      // The same text the thread indexed: UTF-8 decodes one way.
      const text = Buffer.from(read.bytes.buffer, read.bytes.byteOffset, read.bytes.byteLength);
      resolve(PreviousManifest.of(text.toString('utf8'), read.stamp, read.index));
    });
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the thread reading the last manifest stopped (exit code ${code})`)),
    );
  });
  // Awaited once the data is loaded; a build that fails before must not report it unhandled.
  result.catch(() => {});
  return result;
}

/** What the thread does: reads the file, and indexes its lines past the header. */
export function readAndIndex(file: string): ManifestRead {
  const read = readStamped(file);
  if (!read) return null;
  const text = read.bytes.toString('utf8');
  return { ...read, index: indexManifest(text, text.indexOf('\n') + 1) };
}
