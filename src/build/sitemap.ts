import { Readable } from 'node:stream';
import type { Page } from '../routes.js';
import { canonicalUrl } from '../routes.js';
import type { Site } from '../site/model.js';

/** sitemaps.org allows 50,000 URLs a file; we split well before it. */
export const SITEMAP_SPLIT = 45_000;

export interface SitemapFile {
  file: string;
  contents: Buffer;
}

/**
 * sitemap.xml from the page list: exactly the indexable pages. Above `split` URLs, numbered
 * files (sitemap-1.xml, …) and sitemap.xml as their index.
 */
export async function buildSitemaps(
  site: Site,
  pages: readonly Page[],
  lastmod: string,
  split = SITEMAP_SPLIT,
): Promise<SitemapFile[]> {
  // Loaded when the pages are done, not before the first one renders.
  const { SitemapIndexStream, SitemapStream, streamToPromise } = await import('sitemap');
  const entries = pages.flatMap((p) =>
    p.sitemap
      ? [
          {
            url: canonicalUrl(site, p.path),
            lastmod,
            changefreq: p.sitemap.changefreq,
            priority: p.sitemap.priority,
          },
        ]
      : [],
  );
  const toXml = (chunk: typeof entries) =>
    streamToPromise(
      Readable.from(chunk).pipe(new SitemapStream({ xmlns: plainNs, lastmodDateOnly: true })),
    );

  if (entries.length <= split) return [{ file: 'sitemap.xml', contents: await toXml(entries) }];

  const files: SitemapFile[] = [];
  for (let i = 0; i * split < entries.length; i++) {
    files.push({
      file: `sitemap-${i + 1}.xml`,
      contents: await toXml(entries.slice(i * split, (i + 1) * split)),
    });
  }
  const index = await streamToPromise(
    Readable.from(files.map((f) => ({ url: `${site.settings.baseUrl}/${f.file}`, lastmod }))).pipe(
      new SitemapIndexStream({ lastmodDateOnly: true }),
    ),
  );
  return [{ file: 'sitemap.xml', contents: index }, ...files];
}

/** Only the sitemaps.org namespace: no image, video, news or xhtml extensions are used. */
const plainNs = { news: false, video: false, image: false, xhtml: false };

export function robotsTxt(site: Site): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${site.settings.baseUrl}/sitemap.xml\n`;
}
