import { Worker } from 'node:worker_threads';
import type { PageAssets } from './assets.js';
import type { StagedFiles, StageTarget } from './stage-writer.js';

/**
 * The build's threads share one queue of page groups (a city's pages each) in shared memory:
 * each thread claims the next group when it is ready for more, so a thread that started late
 * or renders slowly simply takes fewer. Cells: next group, pages done, stopped (a thread failed).
 */
export class GroupQueue {
  readonly cells: Int32Array;

  constructor(buffer = new SharedArrayBuffer(3 * Int32Array.BYTES_PER_ELEMENT)) {
    this.cells = new Int32Array(buffer);
  }

  get buffer(): SharedArrayBuffer {
    return this.cells.buffer as SharedArrayBuffer;
  }

  /** True once a thread failed: the others stop claiming pages. */
  get stopped(): boolean {
    return Atomics.load(this.cells, 2) === 1;
  }

  /** Pages rendered so far, on every thread. */
  get done(): number {
    return Atomics.load(this.cells, 1);
  }

  stop(): void {
    Atomics.store(this.cells, 2, 1);
  }

  /** Counts a page rendered. */
  pageDone(): void {
    Atomics.add(this.cells, 1, 1);
  }

  /**
   * Calls `claimed` with each group this thread claims, of `count`, until none are left or a
   * thread failed. A group is a city's pages: they stay on one thread, so its shared fragments
   * render once.
   */
  claimEach(count: number, claimed: (group: number) => void): void {
    for (let g = Atomics.add(this.cells, 0, 1); g < count; g = Atomics.add(this.cells, 0, 1)) {
      if (this.stopped) return;
      claimed(g);
    }
  }
}

/** What a render worker is started with: enough to load the same site as the build. */
export interface WorkerSetup {
  dataDir: string;
  baseUrl: string | undefined;
  publicDir?: string | null;
}

/** The build's order to a worker, once it knows which pages to render. */
export interface RenderOrder {
  /** The site digest of the build's own load: the worker's must match. */
  digest: string;
  /** The units with pages to render (see renderClaimed). */
  units: number[];
  starts: Int32Array;
  /** The pages' shared state (see PageState). */
  state: SharedArrayBuffer;
  queue: SharedArrayBuffer;
  target: StageTarget;
  assets: PageAssets;
}

export type WorkerReply =
  | { kind: 'done'; staged: StagedFiles }
  | { kind: 'error'; message: string };

/**
 * Render worker threads started at the beginning of a build, so they load their copy of the
 * site while the build loads its own. Once the build knows what to render, `run` shares the
 * queue with them; a build with little to render `close`s them unused.
 */
export class RenderPool {
  private readonly workers: Worker[];
  /** A worker that stopped or failed before it was given work: reported by `run`. */
  private failure: Error | null = null;

  constructor(script: URL, setup: WorkerSetup, count: number) {
    this.workers = Array.from({ length: count }, () => {
      const worker = new Worker(script, { workerData: setup });
      // A pool that is never used must not keep the process alive.
      worker.unref();
      worker.on('error', (err) => {
        this.failure ??= err;
      });
      return worker;
    });
  }

  /**
   * Gives every worker the order and resolves with what each staged, once all are done. The
   * first failure stops the queue (so the other threads stop soon) and rejects.
   */
  async run(order: RenderOrder, queue: GroupQueue): Promise<StagedFiles[]> {
    return Promise.all(
      this.workers.map(
        (worker) =>
          new Promise<StagedFiles>((resolve, reject) => {
            let settled = false;
            const fail = (err: Error) => {
              // A worker exits once it has replied: only a failure before that stops the others.
              if (settled) return;
              settled = true;
              queue.stop();
              reject(err);
            };
            if (this.failure) return fail(this.failure);
            // Now the build waits for it.
            worker.ref();
            worker.on('message', (m: WorkerReply) => {
              if (m.kind === 'error') return fail(new Error(m.message));
              settled = true;
              resolve(m.staged);
            });
            worker.on('error', fail);
            worker.on('exit', (code) =>
              fail(new Error(`a render worker stopped (exit code ${code})`)),
            );
            worker.postMessage(order);
          }),
      ),
    );
  }

  /** Stops every worker; a build that gave them nothing to do does not wait for them. */
  close(): Promise<void> {
    return Promise.all(this.workers.map((w) => w.terminate())).then(() => undefined);
  }
}
