import type { Template } from '../../templates/pages/index.js';
import { FragmentCache, type PageBytes } from '../render/fragments.js';
import { renderPageBytes } from '../render/render.js';
import type { Page, RouteId } from '../routes.js';
import type { ShareImages } from '../share/share-images.js';
import type { Site } from '../site/model.js';
import type { Assets } from './assets.js';
import type { GroupQueue } from './parallel.js';

/** What renders a page: the site, its page list, the assets pages link to, the templates. */
export interface RenderJob {
  site: Site;
  pages: readonly Page[];
  assets: Pick<Assets, 'css' | 'js' | 'cityIndex'>;
  templates: Record<RouteId, Template>;
  share: ShareImages;
}

/**
 * The render step, the same on every thread: renders the pages of each group this thread claims
 * from the shared queue and hands them to `sink`. A city's pages are one group, so the
 * fragments they share are made, used and let go together on one thread.
 */
export function renderClaimed(
  job: RenderJob,
  queue: GroupQueue,
  groups: readonly (readonly number[])[],
  sink: { putPage(rel: string, page: PageBytes): void },
  onPage?: () => void,
): void {
  const fragments = new FragmentCache();
  const { site, pages, assets, templates, share } = job;
  queue.renderClaimed(groups, (index) => {
    const page = pages[index];
    if (!page) throw new Error(`no page ${index}`);
    sink.putPage(
      page.file,
      renderPageBytes({ site, page, pages, assets, share }, templates, fragments),
    );
    onPage?.();
  });
}
