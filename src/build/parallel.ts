import { Worker } from 'node:worker_threads';
import type { Page } from '../routes.js';

/** What a render worker needs to make the same site model as the build that starts it. */
export interface WorkerSetup {
  dataDir: string;
  baseUrl: string | undefined;
  pageCount: number;
  assets: { css: string; js: string; cityIndex: string };
}

export interface WorkerTask {
  indices: number[];
}

export type WorkerReply =
  | { kind: 'ready' }
  | { kind: 'rendered'; pages: Array<[number, Uint8Array]> }
  | { kind: 'error'; message: string; page: string | null };

/**
 * Renders `indices` of `pages` on `count` worker threads and hands each page's bytes to
 * `onPage` on this thread, in whatever order they finish (output does not depend on it).
 * Pages go out a city at a time, so a city's shared fragments are rendered in one worker only.
 */
export async function renderInWorkers(
  script: URL,
  setup: WorkerSetup,
  pages: readonly Page[],
  indices: readonly number[],
  count: number,
  onPage: (index: number, bytes: Uint8Array) => void,
): Promise<void> {
  const queue = [...groupByCity(pages, indices)];
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      let running = count;
      for (let w = 0; w < count; w++) {
        const worker = new Worker(script, { workerData: setup });
        workers.push(worker);
        let inFlight = 0;
        const next = () => {
          // A few tasks queued per worker, so it renders on while this thread writes.
          while (inFlight < IN_FLIGHT && queue.length > 0) {
            worker.postMessage({ indices: queue.shift() ?? [] } satisfies WorkerTask);
            inFlight++;
          }
          if (inFlight === 0 && --running === 0) resolve();
        };
        worker.on('message', (m: WorkerReply) => {
          if (m.kind === 'error') {
            reject(new Error(m.page ? `Failed to render page ${m.page}: ${m.message}` : m.message));
            return;
          }
          if (m.kind === 'rendered') {
            inFlight--;
            try {
              for (const [index, bytes] of m.pages) onPage(index, bytes);
            } catch (err) {
              reject(err as Error);
              return;
            }
          }
          next();
        });
        worker.on('error', reject);
        worker.on('exit', (code) => {
          if (code !== 0) reject(new Error(`a render worker stopped with exit code ${code}`));
        });
      }
    });
  } finally {
    await Promise.all(workers.map((w) => w.terminate()));
  }
}

const IN_FLIGHT = 3;

/** Page indices in tasks of one city each (pages without a city together), in first-seen order. */
export function groupByCity(pages: readonly Page[], indices: readonly number[]): number[][] {
  const byCity = new Map<string, number[]>();
  for (const i of indices) {
    const key = pages[i]?.city?.slug ?? '';
    let group = byCity.get(key);
    if (!group) {
      group = [];
      byCity.set(key, group);
    }
    group.push(i);
  }
  return [...byCity.values()];
}
