import { parentPort, workerData } from 'node:worker_threads';
import { TEMPLATES } from '../../templates/pages/index.js';
import type { PageContext } from '../render/context.js';
import { FragmentCache } from '../render/fragments.js';
import { renderPageBytes } from '../render/render.js';
import { buildPages } from '../routes.js';
import { loadSite } from '../site/load.js';
import type { WorkerReply, WorkerSetup, WorkerTask } from './parallel.js';

// A render worker: loads the same data as the build that started it (the site model holds
// functions and shared objects, so it is rebuilt here rather than copied), then renders the
// pages it is sent and hands their bytes back, transferred rather than copied.
const port = parentPort;
if (!port) throw new Error('render-worker.js runs only as a worker thread');
const setup = workerData as WorkerSetup;
const reply = (message: WorkerReply, transfer: ArrayBuffer[] = []) =>
  port.postMessage(message, transfer);

try {
  const site = await loadSite(setup.dataDir, { baseUrl: setup.baseUrl });
  const pages = buildPages(site);
  if (pages.length !== setup.pageCount) {
    throw new Error(
      `the data changed while the site was building (${pages.length} pages, not ${setup.pageCount})`,
    );
  }
  const fragments = new FragmentCache();
  port.on('message', (task: WorkerTask) => {
    const done: Array<[number, Uint8Array]> = [];
    for (const index of task.indices) {
      const page = pages[index];
      if (!page) throw new Error(`no page ${index}`);
      const ctx: PageContext = { site, page, pages, assets: setup.assets };
      try {
        // A copy that owns its memory, so it can be transferred.
        done.push([index, new Uint8Array(renderPageBytes(ctx, TEMPLATES, fragments))]);
      } catch (err) {
        reply({ kind: 'error', message: (err as Error).message, page: page.path });
        return;
      }
    }
    reply(
      { kind: 'rendered', pages: done },
      done.map(([, bytes]) => bytes.buffer as ArrayBuffer),
    );
  });
  reply({ kind: 'ready' });
} catch (err) {
  reply({ kind: 'error', message: err instanceof Error ? err.message : String(err), page: null });
}
