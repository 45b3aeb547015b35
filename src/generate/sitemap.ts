import type { Page } from '../routes.js';
import type { Site } from '../site/model.js';
import { absoluteUrl, links } from '../urls.js';
import type { Inputs } from './inputs.js';
import { hash, type Manifest } from './manifest.js';
import type { Plan } from './plan.js';
import type { Staging } from './staging.js';

/** sitemaps.org allows 50,000 URLs a file; we split well before it. */
export const SITEMAP_SPLIT = 45_000;

export interface SitemapFile {
  file: string;
  contents: Buffer;
}

/**
 * sitemap.xml from the page list: exactly the indexable pages. Above `split` URLs, numbered
 * files (sitemap-1.xml, …) and sitemap.xml as their index.
 *
 * Written directly: four elements a URL need no library, and the `sitemap` package's streams
 * and URL normalising cost more than the rest of it (README, Performance). The tests parse the result with
 * that package and validate it against the sitemaps.org schema.
 */
export function buildSitemaps(
  site: Site,
  pages: readonly Page[],
  /** Each indexable page's lastmod, by path; the build's date for those it lacks. */
  dates: Readonly<Record<string, string>>,
  lastmod: string,
  split = SITEMAP_SPLIT,
): SitemapFile[] {
  const urls = pages.flatMap((p) =>
    p.sitemap
      ? [
          `<url><loc>${xmlEscape(absoluteUrl(site.settings.baseUrl, p.path))}</loc><lastmod>${dates[p.path] ?? lastmod}</lastmod>` +
            `<changefreq>${p.sitemap.changefreq}</changefreq>` +
            `<priority>${p.sitemap.priority.toFixed(1)}</priority></url>`,
        ]
      : [],
  );
  if (urls.length <= split) return [{ file: 'sitemap.xml', contents: urlset(urls) }];

  const files: SitemapFile[] = [];
  for (let i = 0; i * split < urls.length; i++) {
    files.push({
      file: `sitemap-${i + 1}.xml`,
      contents: urlset(urls.slice(i * split, (i + 1) * split)),
    });
  }
  const entries = files.map(
    (f) =>
      `<sitemap><loc>${xmlEscape(absoluteUrl(site.settings.baseUrl, `/${f.file}`))}</loc>` +
      `<lastmod>${lastmod}</lastmod></sitemap>`,
  );
  const index = Buffer.from(
    `${XML_DECLARATION}<sitemapindex xmlns="${NS}">${entries.join('')}</sitemapindex>`,
  );
  return [{ file: 'sitemap.xml', contents: index }, ...files];
}

export function robotsTxt(site: Site): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(site.settings.baseUrl, links.sitemapXml)}\n`;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const urlset = (urls: readonly string[]) =>
  Buffer.from(`${XML_DECLARATION}<urlset xmlns="${NS}">${urls.join('')}</urlset>`);

const XML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&apos;',
};

function xmlEscape(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => XML_ESCAPES[ch] ?? ch);
}

/**
 * Stages sitemap.xml (and its parts): the last build's files when they were made from the same
 * pages and dates. Resolves with its files and the key they were made under.
 */
export function stageSitemap(
  staging: Staging,
  inputs: Inputs,
  plan: Plan,
  dates: Readonly<Record<string, string>>,
  previous: Manifest['sitemap'] | undefined,
): { key: string; files: string[] } {
  const key = hash([plan.sitemap.key, dates]);
  if (previous?.key === key && staging.keep(...previous.files)) return previous;
  const files = buildSitemaps(inputs.site, inputs.pages, dates, inputs.lastmod).map((s) => {
    staging.put(s.file, s.contents);
    return s.file;
  });
  return { key, files };
}
