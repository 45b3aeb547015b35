import os from 'node:os';
import { Worker } from 'node:worker_threads';
import { isCompiled } from '../root.js';
import type { ShareCard } from './cards.js';
import { type CardBrand, CardPainter, collectGarbage } from './draw.js';
import { ImageCache } from './image-cache.js';

/**
 * Draws share images for a build: on threads of their own (one per core) when the CLI is
 * compiled, else on this one. Drawing makes garbage (each card's outlines, its SVG, resvg's pixels), and on the build's
 * thread it piled up on top of the build's own heap, which V8 lets grow in proportion: a
 * site-wide change at 100 times the bundled data, rebuilt in place, peaked at 681 MiB while it
 * drew its 19,000 images (a first 100x build drawing them all peaks at 396 MiB now). A
 * thread of its own collects against its own small heap, and gives all of it back when it ends.
 * Each image's pixels are let go as soon as it is drawn (see CardPainter.release): on a heap this
 * small a collection costs well under a millisecond, and a 10x build drawing its 1,900 images
 * peaked at 219 MiB so, against 232 every fourth image and 280 every sixteenth, in the same time.
 */
export interface Drawer {
  /** Threads drawing at once (1 for one thread, or none: drawn on this one). */
  readonly size: number;
  png(card: ShareCard, brand: CardBrand): Promise<Uint8Array>;
  /** Draws an image into the cache folder `dir` under `key`: whether it was written there. */
  toCache(card: ShareCard, brand: CardBrand, dir: string, key: string): Promise<boolean>;
  close(): Promise<void>;
}

/**
 * A drawer for `count` images: on as many threads as there are cores (at most MAX_THREADS, and
 * one per IMAGES_PER_THREAD images, since each thread first loads the fonts and resvg).
 */
export function startDrawer(count = 1, { afterRender = true } = {}): Drawer {
  if (!isCompiled()) return new InlineDrawer();
  // After the render this thread mostly waits, on the heap its render left: one full collection
  // lets V8 give back what that heap no longer uses, before the drawing threads grow their own.
  if (afterRender) collectGarbage({ type: 'major' });
  const threads = Math.min(
    os.availableParallelism(),
    MAX_THREADS,
    Math.max(1, Math.ceil(count / IMAGES_PER_THREAD)),
  );
  return threads === 1 ? new ThreadDrawer() : new PoolDrawer(threads);
}

/**
 * Drawing threads at most: each holds its own fonts and heap (some tens of MB), and a build's
 * peak memory is held to a budget (docs/benchmarks.md).
 */
const MAX_THREADS = 4;
/** Fewer images than this are drawn sooner on one thread than by loading a second. */
const IMAGES_PER_THREAD = 8;

/** Images received between two collections of this thread's young heap (see ThreadDrawer). */
const RELEASE_EVERY = 16;

/** The drawing thread, beside the compiled CLI (scripts/build-cli.mjs makes it). */
const DRAW_WORKER = new URL('./draw-worker.js', import.meta.url);

export type DrawRequest = {
  n: number;
  card: ShareCard;
  brand: CardBrand;
  /** Put the image in this cache, rather than send it back. */
  cache?: { dir: string; key: string };
};
export type DrawReply =
  | { n: number; png: Uint8Array }
  | { n: number; cached: boolean }
  | { n: number; error: string };

class ThreadDrawer implements Drawer {
  readonly size = 1;
  private readonly worker = new Worker(DRAW_WORKER);
  private readonly waiting = new Map<
    number,
    { resolve: (reply: Uint8Array | boolean) => void; reject: (err: Error) => void }
  >();
  private next = 0;
  private received = 0;
  private failed: Error | null = null;

  constructor() {
    this.worker.on('message', (m: DrawReply) => {
      // Each image arrives in memory of its own (outside V8's heap), which only a collection of
      // this mostly idle thread frees: a young one, every few images, is enough.
      if (++this.received % RELEASE_EVERY === 0) collectGarbage({ type: 'minor' });
      const waiter = this.waiting.get(m.n);
      this.waiting.delete(m.n);
      if ('png' in m) waiter?.resolve(m.png);
      else if ('cached' in m) waiter?.resolve(m.cached);
      else waiter?.reject(new Error(`drawing a share image failed: ${m.error}`));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) =>
      this.fail(new Error(`the drawing thread stopped (exit code ${code})`)),
    );
  }

  /** Images asked for and not yet back. */
  get pending(): number {
    return this.waiting.size;
  }

  png(card: ShareCard, brand: CardBrand): Promise<Uint8Array> {
    return this.ask({ card, brand }) as Promise<Uint8Array>;
  }

  toCache(card: ShareCard, brand: CardBrand, dir: string, key: string): Promise<boolean> {
    return this.ask({ card, brand, cache: { dir, key } }) as Promise<boolean>;
  }

  private ask(request: Omit<DrawRequest, 'n'>): Promise<Uint8Array | boolean> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      const n = this.next++;
      this.waiting.set(n, { resolve, reject });
      this.worker.postMessage({ n, ...request } satisfies DrawRequest);
    });
  }

  async close(): Promise<void> {
    this.failed ??= new Error('the drawing thread was closed');
    await this.worker.terminate();
  }

  private fail(err: Error): void {
    this.failed ??= err;
    for (const waiter of this.waiting.values()) waiter.reject(err);
    this.waiting.clear();
  }
}

/** Several drawing threads: each image goes to the one with the fewest waiting. */
class PoolDrawer implements Drawer {
  private readonly threads: ThreadDrawer[];
  readonly size: number;

  constructor(count: number) {
    this.threads = Array.from({ length: count }, () => new ThreadDrawer());
    this.size = count;
  }

  png(card: ShareCard, brand: CardBrand): Promise<Uint8Array> {
    return this.idlest().png(card, brand);
  }

  toCache(card: ShareCard, brand: CardBrand, dir: string, key: string): Promise<boolean> {
    return this.idlest().toCache(card, brand, dir, key);
  }

  private idlest(): ThreadDrawer {
    let idlest = this.threads[0] as ThreadDrawer;
    for (const thread of this.threads) if (thread.pending < idlest.pending) idlest = thread;
    return idlest;
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.map((thread) => thread.close()));
  }
}

/** Running from sources, where no compiled thread is at hand: drawn here, released as often. */
class InlineDrawer implements Drawer {
  readonly size = 1;
  private readonly painter = CardPainter.load();

  async png(card: ShareCard, brand: CardBrand): Promise<Uint8Array> {
    const png = this.painter.png(card, brand);
    await this.painter.release();
    return png;
  }

  async toCache(card: ShareCard, brand: CardBrand, dir: string, key: string): Promise<boolean> {
    return new ImageCache(dir).put(key, await this.png(card, brand));
  }

  async close(): Promise<void> {}
}
