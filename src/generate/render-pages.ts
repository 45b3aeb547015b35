import type { RenderedPhrases } from '../audit/rendered-phrases.js';
import { siteDigest } from './fingerprints.js';
import type { Inputs } from './inputs.js';
import { GroupQueue, type RenderPool } from './parallel.js';
import type { Plan } from './plan.js';
import { renderClaimed, unitsToRender } from './render-step.js';
import type { StagedFiles } from './stage-writer.js';
import type { Staging } from './staging.js';
import { startWriter, type ThreadOptions, usesWorkers } from './threads.js';
import { WriterFailed } from './write-thread.js';

/** A performance mark set when the first page has rendered: the benchmark's start-up figure. */
export const FIRST_PAGE_MARK = 'claimsite:first-page';

/**
 * Renders the pages the plan marks into the staging folder, a unit (a city) at a time: on this
 * thread, with a writer thread writing them when there are enough, and with the render workers
 * when they take part. Resolves with the number rendered; every thread has stopped writing
 * when it settles.
 */
export async function renderPages(
  inputs: Inputs,
  plan: Pick<Plan, 'starts' | 'state'>,
  staging: Staging,
  threads: ThreadOptions & { pool: RenderPool | null },
  audited: RenderedPhrases | null,
  onPage?: (done: number) => void,
): Promise<number> {
  const { starts, state } = plan;
  const units = unitsToRender(starts, state);
  const toRender = state.render.reduce((n, r) => n + r, 0);
  const queue = new GroupQueue();
  const { assets } = inputs;
  const workers =
    threads.pool && usesWorkers(threads, toRender)
      ? runOnWorkers(threads.pool, inputs, plan, staging, units, queue)
      : Promise.resolve<StagedFiles[]>([]);
  // Reported after this thread's share; this keeps it from going unhandled meanwhile.
  workers.catch(() => {});
  const writer = startWriter(threads, toRender, staging.target, state);
  let rendered = 0;
  try {
    renderClaimed(
      {
        site: inputs.site,
        units: inputs.units,
        sitePages: inputs.units.pages(0),
        assets,
        templates: inputs.templates,
        share: inputs.share,
        starts,
        state,
        // The pages the workers render are read back by the audit.
        audited: audited ? (index, page) => audited.add(index, page) : undefined,
      },
      queue,
      units,
      writer ?? {
        putPage: (rel, page, index) => {
          if (staging.putPage(rel, page, state.owned[index] === 1)) state.changed[index] = 1;
        },
      },
      () => {
        if (++rendered === 1) performance.mark(FIRST_PAGE_MARK);
        onPage?.(queue.done);
      },
    );
    // Stopped by a worker that failed: its error is the build's.
    if (queue.stopped) await workers;
    if (queue.stopped) throw new Error('rendering stopped before every page was rendered');
    if (writer) staging.add(await writer.finish());
    for (const staged of await workers) staging.add(staged);
    return queue.done;
  } catch (err) {
    // The other threads stop at their next page; the build goes on only once none of them can
    // write into the staging folder again.
    queue.stop();
    await workers.catch(() => {});
    if (err instanceof WriterFailed && writer) throw await writer.failure();
    await writer?.abort();
    throw err;
  }
}

/** The render workers' share of the pages: they claim units from the same queue as this thread. */
function runOnWorkers(
  pool: RenderPool,
  inputs: Inputs,
  { starts, state }: Pick<Plan, 'starts' | 'state'>,
  staging: Staging,
  units: ReturnType<typeof unitsToRender>,
  queue: GroupQueue,
): Promise<StagedFiles[]> {
  const { assets } = inputs;
  return pool.run(
    {
      digest: siteDigest(inputs.site),
      units,
      starts,
      state: state.buffer,
      queue: queue.buffer,
      target: staging.target,
      assets: {
        css: assets.css,
        js: assets.js,
        cityIndex: assets.cityIndex,
        fonts: assets.fonts,
        photos: assets.photos,
      },
    },
    queue,
  );
}
