import type { PageAssets } from '../generate/assets.js';
import type { Page } from '../routes.js';
import type { ShareImages } from '../share/share-images.js';
import type { Site } from '../site/model.js';

/** Everything a template may read. Templates are pure functions of this. */
export interface PageContext {
  site: Site;
  page: Page;
  /** Every page of the build, for pages that list others (the HTML sitemap). */
  pages: readonly Page[];
  assets: PageAssets;
  /** Each page's share image (og:image). */
  share: ShareImages;
}

/**
 * The city that About, Services and the footer links are scoped to: the page's own city, or the
 * whole country on site pages.
 */
export function scopeSlug(ctx: PageContext): string {
  return ctx.page.city?.slug ?? ctx.site.national.slug;
}
