import { type HTMLElement, parse } from 'node-html-parser';
import type { PageAssets } from '../src/generate/assets.js';
import { buildPages } from '../src/pages.js';
import { FragmentCache } from '../src/render/fragments.js';
import { renderPage } from '../src/render/render.js';
import { shareImages } from '../src/share/share-images.js';
import type { Site } from '../src/site/model.js';
import { TEMPLATES } from '../templates/pages/index.js';
import { PAGE_ASSETS } from './helpers.js';

/**
 * A site's pages rendered in memory by path, no build and no disk: what content and template
 * tests read. Its pages are planned once; each page is rendered when asked for.
 */
export function pageRenderer(site: Site, assets: PageAssets = PAGE_ASSETS) {
  const pages = buildPages(site);
  const byPath = new Map(pages.map((p) => [p.path, p]));
  const fragments = new FragmentCache();
  const share = shareImages(site);
  const render = (at: string): HTMLElement => {
    const page = byPath.get(at);
    if (!page) throw new Error(`no page ${at}`);
    return parse(renderPage({ site, page, pages, assets, share }, TEMPLATES, fragments));
  };
  return { pages, render };
}
