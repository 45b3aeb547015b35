import { parentPort, threadId, workerData } from 'node:worker_threads';
import { TEMPLATES } from '../../templates/pages/index.js';
import { PageUnits } from '../pages.js';
import { shareImages } from '../share/share-images.js';
import { loadSite } from '../site/load.js';
import { siteDigest } from './fingerprints.js';
import { PageState } from './page-state.js';
import { GroupQueue, type RenderOrder, type WorkerReply, type WorkerSetup } from './parallel.js';
import { renderClaimed } from './render-step.js';
import { StageWriter } from './stage-writer.js';

// A render worker: loads the same data as the build that started it, at the same time (the site
// model holds shared objects, so it is rebuilt here rather than copied), then renders and stages
// the pages of every unit it claims from the build's shared queue, writing them itself. It
// enumerates a unit's pages as the build does, from the same site (checked by its digest).
const port = parentPort;
if (!port) throw new Error('render-worker.js runs only as a worker thread');
const setup = workerData as WorkerSetup;
const ordered = new Promise<RenderOrder>((resolve) => port.once('message', resolve));
const reply = (message: WorkerReply) => port.postMessage(message);

try {
  const site = await loadSite(setup.dataDir, {
    baseUrl: setup.baseUrl,
    publicDir: setup.publicDir,
  });
  const units = new PageUnits(site);
  const order = await ordered;
  if (siteDigest(site) !== order.digest) {
    throw new Error('the data changed while the site was building: run the build again');
  }
  const queue = new GroupQueue(order.queue);
  const state = new PageState(order.state);
  const writer = new StageWriter(order.target, `w${threadId}-`);
  renderClaimed(
    {
      site,
      units,
      sitePages: units.pages(0),
      assets: order.assets,
      templates: TEMPLATES,
      share: shareImages(site),
      starts: order.starts,
      state,
    },
    queue,
    order.units,
    {
      putPage: (rel, page, index) => {
        if (writer.putPage(rel, page, state.owned[index] === 1)) state.changed[index] = 1;
      },
    },
  );
  reply({ kind: 'done', staged: writer.result() });
} catch (err) {
  // A page that fails to render says so itself (RenderError names the page).
  reply({ kind: 'error', message: err instanceof Error ? err.message : String(err) });
}
