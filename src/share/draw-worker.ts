import { parentPort } from 'node:worker_threads';
import { CardPainter } from './draw.js';
import type { DrawReply, DrawRequest } from './drawer.js';
import { ImageCache } from './image-cache.js';

// A drawing thread: draws the cards the build sends, in order, sends back each PNG (or puts it
// in the cache, when asked to), and lets go of its pixels before the next (see Drawer).
const port = parentPort;
if (!port) throw new Error('draw-worker.js runs only as a worker thread');
const painter = CardPainter.load();
let queue = Promise.resolve();

port.on('message', (m: DrawRequest) => {
  queue = queue.then(async () => {
    let reply: DrawReply;
    try {
      if (m.cache) {
        // Drawn ahead, while the pages render: into the cache, where the build then finds it.
        const cached = new ImageCache(m.cache.dir).put(m.cache.key, painter.png(m.card, m.brand));
        port.postMessage({ n: m.n, cached } satisfies DrawReply);
      } else {
        // A copy of its own, so that it can be handed over without copying again.
        const png = new Uint8Array(painter.png(m.card, m.brand));
        reply = { n: m.n, png };
        port.postMessage(reply, [png.buffer]);
      }
    } catch (err) {
      reply = { n: m.n, error: err instanceof Error ? err.message : String(err) };
      port.postMessage(reply);
    }
    await painter.release();
  });
});
