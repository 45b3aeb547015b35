import { Worker } from 'node:worker_threads';
import type { PageBytes } from '../render/fragments.js';
import type { PageState } from './page-state.js';
import type { StagedFiles, StageTarget } from './stage-writer.js';

/**
 * A page for the writer thread: its path and where its bytes are in the ring, after `skip`
 * bytes left unused at the ring's end (a page never wraps around), or its own bytes when it is
 * too large for the ring.
 */
type WriteRecord =
  | [rel: string, index: number, offset: number, size: number, skip: number]
  | [rel: string, index: number, bytes: Uint8Array];

export type WriteMessage = { kind: 'pages'; records: WriteRecord[] } | { kind: 'end' };

export type WriteReply = { kind: 'done'; staged: StagedFiles } | { kind: 'error'; message: string };

/**
 * Thrown on the rendering thread once the writer thread has failed; the writer's own error (a
 * full disk, a permission) follows through `WriterThread.failure`.
 */
export class WriterFailed extends Error {
  constructor() {
    super('writing the output failed');
  }
}

export interface WriterSetup {
  target: StageTarget;
  /** Names this thread's staged files apart from other threads'. */
  prefix: string;
  ring: SharedArrayBuffer;
  /** The pages' shared state: whether a page's file is ours, and where to say it changed. */
  state: SharedArrayBuffer;
  /** Int32 cells: ring bytes freed so far (wrapping), and 1 once writing failed. */
  cells: SharedArrayBuffer;
}

/**
 * Hands rendered pages to a thread that stages them (folders, comparison, writes), so the file
 * system's time overlaps the rendering instead of following it (creating a page's folder and
 * file costs a good part of what rendering it does). Pages are assembled straight into a ring
 * of shared memory that the writer writes from, so no page allocates memory of its own, and the
 * build waits when the ring is full, so memory stays flat however large the site.
 */
export class WriterThread {
  private readonly worker: Worker;
  private readonly ring: Buffer;
  private readonly cells: Int32Array;
  /** Ring bytes used so far (wrapping like the freed count), and where the next page goes. */
  private used = 0;
  private head = 0;
  private records: WriteRecord[] = [];
  private readonly result: Promise<StagedFiles>;

  constructor(
    script: URL,
    target: StageTarget,
    state: PageState,
    prefix: string,
    ringBytes = RING_BYTES,
  ) {
    const ring = new SharedArrayBuffer(ringBytes);
    const cells = new SharedArrayBuffer(2 * Int32Array.BYTES_PER_ELEMENT);
    this.ring = Buffer.from(ring);
    this.cells = new Int32Array(cells);
    this.worker = new Worker(script, {
      workerData: { target, prefix, ring, state: state.buffer, cells } satisfies WriterSetup,
    });
    this.result = new Promise<StagedFiles>((resolve, reject) => {
      this.worker.on('message', (m: WriteReply) => {
        if (m.kind === 'done') resolve(m.staged);
        else reject(new Error(m.message));
      });
      this.worker.on('error', reject);
      this.worker.on('exit', (code) =>
        reject(new Error(`the writer thread stopped (exit code ${code})`)),
      );
    });
    // Reported by finish(); until then a failure must not go unhandled.
    this.result.catch(() => {});
  }

  /** Stages a page on the writer thread. Throws once writing failed, so the build stops early. */
  putPage(rel: string, page: PageBytes, index: number): void {
    if (Atomics.load(this.cells, 1) === 1) throw new WriterFailed();
    const capacity = this.ring.length;
    if (page.size > capacity / 2) {
      this.records.push([rel, index, new Uint8Array(page.toBuffer())]);
    } else {
      // A page that does not fit before the ring's end starts over at 0.
      const wraps = this.head + page.size > capacity;
      const skip = wraps ? capacity - this.head : 0;
      const offset = wraps ? 0 : this.head;
      this.waitForRoom(skip + page.size);
      page.copyTo(this.ring, offset);
      this.records.push([rel, index, offset, page.size, skip]);
      this.used = (this.used + skip + page.size) | 0;
      this.head = offset + page.size;
    }
    if (this.records.length >= BATCH) this.flush();
  }

  /** Sends what is left, and resolves with what the thread staged once it has written it all. */
  async finish(): Promise<StagedFiles> {
    this.flush();
    this.worker.postMessage({ kind: 'end' } satisfies WriteMessage);
    try {
      return await this.result;
    } finally {
      await this.worker.terminate();
    }
  }

  /** The writer's own error once it failed: what a WriterFailed stands for. */
  async failure(): Promise<Error> {
    try {
      await this.finish();
    } catch (err) {
      return err instanceof Error ? err : new Error(String(err));
    }
    return new WriterFailed();
  }

  /** Stops the thread; what it staged goes with the staging folder. */
  async abort(): Promise<void> {
    await this.worker.terminate();
  }

  private flush(): void {
    if (this.records.length === 0) return;
    const transfer = this.records.flatMap((r) =>
      r.length === 3 ? [r[2].buffer as ArrayBuffer] : [],
    );
    this.worker.postMessage(
      { kind: 'pages', records: this.records } satisfies WriteMessage,
      transfer,
    );
    this.records = [];
  }

  /** Waits until the writer has freed enough of the ring for `bytes` more. */
  private waitForRoom(bytes: number): void {
    let stalled = 0;
    for (;;) {
      const freed = Atomics.load(this.cells, 0);
      if (((this.used - freed) | 0) + bytes <= this.ring.length) return;
      if (Atomics.load(this.cells, 1) === 1) throw new WriterFailed();
      // The writer can only free what it has been sent.
      this.flush();
      if (Atomics.wait(this.cells, 0, freed, WAIT_MS) === 'timed-out') stalled += WAIT_MS;
      else stalled = 0;
      if (stalled >= STALL_MS) throw new Error('the writer thread stopped writing');
    }
  }
}

/** Room for a few hundred pages in flight. */
const RING_BYTES = 8 * 1024 * 1024;
const BATCH = 32;
const WAIT_MS = 100;
const STALL_MS = 60_000;
