import { availableParallelism } from 'node:os';
import { isCompiled } from '../root.js';
import type { PageState } from './page-state.js';
import { RenderPool } from './parallel.js';
import type { StageTarget } from './stage-writer.js';
import { WriterThread } from './write-thread.js';

/**
 * Which threads a build uses: this one always renders; a writer thread writes the pages while
 * the next ones render; render workers render too, on larger machines and larger sites.
 */
export interface ThreadOptions {
  dataDir: string;
  baseUrl?: string;
  /** Where site.json's logo is read from. */
  publicDir?: string | null;
  /**
   * Worker threads that render besides this one; 0 renders and writes on this thread only.
   * Default: none below 4 cores, else one per core but two (this thread renders, one writes),
   * up to 3, used from PARALLEL_MIN_PAGES pages to render. Needs the compiled CLI.
   */
  workers?: number;
  /** Templates or routes of the caller's own: only this thread has them. */
  custom?: boolean;
}

/**
 * Below this many pages to render, the build's own thread renders them all: each render worker
 * loads the site again and warms up a renderer of its own, which pays off only on large sites.
 */
export const PARALLEL_MIN_PAGES = 10_000;

/** From this many pages to render, a thread of their own writes them (it takes a while to start). */
const WRITER_MIN_PAGES = 200;

/** The compiled threads, beside the compiled CLI (scripts/build-cli.mjs makes them). */
const RENDER_WORKER = new URL('./render-worker.js', import.meta.url);
const WRITE_WORKER = new URL('./write-worker.js', import.meta.url);

/**
 * Starts the render workers a build may use, at its start, so they load their copy of the site
 * while the build loads its own; null for none. They are used only if there turn out to be
 * PARALLEL_MIN_PAGES pages to render (or workers were asked for).
 */
export function startRenderPool(options: ThreadOptions): RenderPool | null {
  const count = plannedWorkers(options);
  return count > 0
    ? new RenderPool(
        RENDER_WORKER,
        { dataDir: options.dataDir, baseUrl: options.baseUrl, publicDir: options.publicDir },
        count,
      )
    : null;
}

/** Whether the started workers render this build's pages. */
export function usesWorkers(options: ThreadOptions, toRender: number): boolean {
  return options.workers !== undefined || toRender >= PARALLEL_MIN_PAGES;
}

/** A writer thread for this many pages, when there is a core for it and --workers 0 is not set. */
export function startWriter(
  options: ThreadOptions,
  toRender: number,
  target: StageTarget,
  state: PageState,
): WriterThread | null {
  if (options.workers === 0 || !isCompiled()) return null;
  if (availableParallelism() < 2 || toRender < WRITER_MIN_PAGES) return null;
  return new WriterThread(WRITE_WORKER, target, state, 'main-');
}

function plannedWorkers(options: ThreadOptions): number {
  if (options.workers !== undefined) {
    if (!Number.isInteger(options.workers) || options.workers < 0)
      throw new Error('workers must be a whole number, 0 or more');
    if (options.workers > 0 && (options.custom || !isCompiled()))
      throw new Error(
        'worker threads render with the compiled CLI and its own templates only (npm run build)',
      );
    return options.workers;
  }
  // With fewer than 4 cores, this thread and the writer thread use them all.
  const cores = availableParallelism();
  if (options.custom || !isCompiled() || cores < 4) return 0;
  return Math.min(cores - 2, 3);
}
