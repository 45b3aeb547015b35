import { Worker } from 'node:worker_threads';
import { isCompiled } from '../generate/root.js';
import type { ShareCard } from './cards.js';
import { type CardBrand, CardPainter, collectGarbage } from './draw.js';

/**
 * Draws share images for a build: on a thread of its own when the CLI is compiled, else on this
 * one. Drawing makes garbage (each card's outlines, its SVG, resvg's pixels), and on the build's
 * thread it piled up on top of the build's own heap, which V8 lets grow in proportion: a
 * site-wide change at 100 times the bundled data, rebuilt in place, peaked at 681 MiB while it
 * drew its 19,000 images (a first 100x build drawing them all peaks at 396 MiB now). A
 * thread of its own collects against its own small heap, and gives all of it back when it ends.
 * Each image's pixels are let go as soon as it is drawn (see CardPainter.release): on a heap this
 * small a collection costs well under a millisecond, and a 10x build drawing its 1,900 images
 * peaked at 219 MiB so, against 232 every fourth image and 280 every sixteenth, in the same time.
 */
export interface Drawer {
  png(card: ShareCard, brand: CardBrand): Promise<Uint8Array>;
  close(): Promise<void>;
}

export function startDrawer(): Drawer {
  return isCompiled() ? new ThreadDrawer() : new InlineDrawer();
}

/** Images received between two collections of this thread's young heap (see ThreadDrawer). */
const RELEASE_EVERY = 16;

/** The drawing thread, beside the compiled CLI (scripts/build-cli.mjs makes it). */
const DRAW_WORKER = new URL('./draw-worker.js', import.meta.url);

export type DrawRequest = { n: number; card: ShareCard; brand: CardBrand };
export type DrawReply = { n: number; png: Uint8Array } | { n: number; error: string };

class ThreadDrawer implements Drawer {
  private readonly worker = new Worker(DRAW_WORKER);
  private readonly waiting = new Map<
    number,
    { resolve: (png: Uint8Array) => void; reject: (err: Error) => void }
  >();
  private next = 0;
  private received = 0;
  private failed: Error | null = null;

  constructor() {
    // From here this thread mostly waits, on the heap its render left: one full collection lets
    // V8 give back what that heap no longer uses, before the drawing thread grows its own.
    collectGarbage({ type: 'major' });
    this.worker.on('message', (m: DrawReply) => {
      // Each image arrives in memory of its own (outside V8's heap), which only a collection of
      // this mostly idle thread frees: a young one, every few images, is enough.
      if (++this.received % RELEASE_EVERY === 0) collectGarbage({ type: 'minor' });
      const waiter = this.waiting.get(m.n);
      this.waiting.delete(m.n);
      if ('png' in m) waiter?.resolve(m.png);
      else waiter?.reject(new Error(`drawing a share image failed: ${m.error}`));
    });
    this.worker.on('error', (err) => this.fail(err));
    this.worker.on('exit', (code) =>
      this.fail(new Error(`the drawing thread stopped (exit code ${code})`)),
    );
  }

  png(card: ShareCard, brand: CardBrand): Promise<Uint8Array> {
    if (this.failed) return Promise.reject(this.failed);
    return new Promise((resolve, reject) => {
      const n = this.next++;
      this.waiting.set(n, { resolve, reject });
      this.worker.postMessage({ n, card, brand } satisfies DrawRequest);
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

/** Running from sources, where no compiled thread is at hand: drawn here, released as often. */
class InlineDrawer implements Drawer {
  private readonly painter = CardPainter.load();

  async png(card: ShareCard, brand: CardBrand): Promise<Uint8Array> {
    const png = this.painter.png(card, brand);
    await this.painter.release();
    return png;
  }

  async close(): Promise<void> {}
}
