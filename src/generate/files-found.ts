import { closeSync, existsSync, fstatSync, openSync, readSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { isCompiled } from '../root.js';
import { fileStamp, manifestFile, relOf } from './manifest.js';

/**
 * Which of the last build's files are still in the output folder: a byte per manifest entry, in
 * the manifest's order, 1 where the file is there. An incremental build keeps only pages whose
 * file is there, and at 350,000 pages the checks take over a second: a thread of their own does
 * them while this one plans (see startFilesFound).
 */
export interface FilesFound {
  /** The manifest file as checked: found only answers for the manifest it was read from. */
  stamp: string;
  found: Uint8Array;
}

/**
 * Reads the manifest a megabyte at a time (its text is held by the build already) and checks
 * each entry's file. The entries are counted as PreviousManifest counts them: every non-empty
 * line after the header. O(entries), one existence check each.
 */
export function findFiles(outDir: string): FilesFound | null {
  let fd: number;
  try {
    fd = openSync(manifestFile(outDir), 'r');
  } catch {
    return null;
  }
  try {
    const stamp = fileStamp(fstatSync(fd));
    const out = path.resolve(outDir);
    let found = new Uint8Array(1 << 16);
    let count = 0;
    const check = (line: string) => {
      if (line.length === 0) return;
      if (count === found.length) {
        const grown = new Uint8Array(count * 2);
        grown.set(found);
        found = grown;
      }
      // Paths of our own making, already normal: joined by hand (path.join costs more).
      found[count++] = existsSync(`${out}${path.sep}${relOf(line, 0, line.length)}`) ? 1 : 0;
    };
    const decoder = new TextDecoder();
    const chunk = Buffer.allocUnsafe(1 << 20);
    let rest = '';
    let header = true;
    for (;;) {
      const n = readSync(fd, chunk, 0, chunk.length, null);
      const text = rest + decoder.decode(chunk.subarray(0, n), { stream: n > 0 });
      let start = 0;
      for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', start)) {
        if (header) header = false;
        else check(text.slice(start, end));
        start = end + 1;
      }
      rest = text.slice(start);
      if (n === 0) break;
    }
    if (!header) check(rest);
    return { stamp, found: found.slice(0, count) };
  } finally {
    closeSync(fd);
  }
}

/**
 * From a last manifest this large (about 50,000 files), a thread checks its files: below, the
 * checks take less than the thread takes to start and load (a 1x rebuild of 3,400 files was 13%
 * slower with it). By the file's size, so that the thread starts with the build, before the
 * manifest is read.
 */
export const FILES_THREAD_MIN_BYTES = 4 << 20;

/** The compiled thread, beside the compiled CLI (scripts/build-cli.mjs makes it). */
const WORKER = new URL('./files-worker.js', import.meta.url);

/** The thread's answer, and a way to stop it when the build stops first. */
export interface FilesSearch {
  found: Promise<FilesFound | null>;
  stop(): void;
}

/**
 * Starts findFiles on a thread of its own, at the build's start: at 100x its checks (1.2-1.6 s)
 * outlast a one-city edit's loading and planning, so they run beside both. What it finds is taken
 * only for the manifest the build reads (see Staging.takeFound). Null found when it cannot run
 * there (from sources, on one core) or would not pay (see FILES_THREAD_MIN_BYTES): the build then
 * checks each file itself. A thread that fails fails the build, as the writer thread does: it is
 * a fault of the build, not of the output folder.
 */
export function startFilesFound(outDir: string): FilesSearch {
  const size = statSync(manifestFile(outDir), { throwIfNoEntry: false })?.size ?? 0;
  if (!isCompiled() || availableParallelism() < 2 || size < FILES_THREAD_MIN_BYTES)
    return { found: Promise.resolve(null), stop: () => {} };
  const worker = new Worker(WORKER, {
    workerData: { outDir },
    // Its garbage (a line and a path a file) dies young: a small young generation collects it
    // often and cheaply. V8's default let the thread's heap grow to 67 MB at 100x, while the
    // build plans beside it at its own largest (a one-city edit peaked 15-20 MB higher).
    resourceLimits: { maxYoungGenerationSizeMb: 4 },
  });
  const found = new Promise<FilesFound | null>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) =>
      reject(new Error(`the thread finding the output's files stopped (exit code ${code})`)),
    );
  });
  // Awaited once the plan is made; a build that fails before must not report it unhandled.
  found.catch(() => {});
  // A build that stops before (bad data) does not wait for the checks to end.
  return { found, stop: () => void worker.terminate() };
}
