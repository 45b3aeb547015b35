import type { Template } from '../../templates/pages/index.js';
import type { PageUnits } from '../pages.js';
import { FragmentCache, type PageBytes } from '../render/fragments.js';
import { renderPageBytes } from '../render/render.js';
import type { Page, RouteId } from '../routes.js';
import type { ShareImages } from '../share/share-images.js';
import type { Site } from '../site/model.js';
import type { PageAssets } from './assets.js';
import type { PageState } from './page-state.js';
import type { GroupQueue } from './parallel.js';

/** What renders a page: the site, its pages a unit at a time, the assets, the templates. */
interface RenderJob {
  site: Site;
  units: PageUnits;
  /** The pages of no city (unit 0), for pages that list them (the HTML sitemap). */
  sitePages: readonly Page[];
  assets: PageAssets;
  templates: Record<RouteId, Template>;
  share: ShareImages;
  /** Where each unit's pages start in the page order (see Plan.starts). */
  starts: Int32Array;
  /** Which pages to render; each rendered page's size is recorded here. */
  state: PageState;
  /** Given each indexable page rendered, when the build audits them (see RenderedPhrases). */
  audited?: (index: number, page: PageBytes) => void;
}

/** Where rendered pages go: a page's file, its bytes, and its index in the page order. */
interface PageSink {
  putPage(rel: string, page: PageBytes, index: number): void;
}

/**
 * The render step, the same on every thread: renders the pages to render of each unit this
 * thread claims from the shared queue and hands them to `sink`. A unit (a city) is enumerated
 * here, on the thread that renders it, and let go with its shared fragments once rendered.
 */
export function renderClaimed(
  job: RenderJob,
  queue: GroupQueue,
  units: readonly number[],
  sink: PageSink,
  onPage?: () => void,
): void {
  const fragments = new FragmentCache();
  const { site, sitePages, assets, templates, share, state, starts } = job;
  queue.claimEach(units.length, (g) => {
    const u = units[g] ?? 0;
    const first = starts[u] ?? 0;
    const pages = job.units.pages(u);
    const planned = (starts[u + 1] ?? 0) - first;
    // A unit the plan copied from the manifest must enumerate as it did then (see unitDigest).
    if (pages.length !== planned)
      throw new Error(`unit ${u} has ${pages.length} pages, the plan ${planned}`);
    for (const [j, page] of pages.entries()) {
      const index = first + j;
      if (state.render[index] !== 1) continue;
      if (queue.stopped) return;
      const bytes = renderPageBytes(
        { site, page, pages: sitePages, assets, share },
        templates,
        fragments,
      );
      state.sizes[index] = bytes.size;
      if (page.sitemap) job.audited?.(index, bytes);
      sink.putPage(page.file, bytes, index);
      queue.pageDone();
      onPage?.();
    }
  });
}

/** The units with a page to render, in page order. */
export function unitsToRender(starts: Int32Array, state: PageState): number[] {
  const out: number[] = [];
  for (let u = 0; u + 1 < starts.length; u++)
    for (let i = starts[u] ?? 0; i < (starts[u + 1] ?? 0); i++)
      if (state.render[i] === 1) {
        out.push(u);
        break;
      }
  return out;
}
