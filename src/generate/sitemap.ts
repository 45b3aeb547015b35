import { LANG_TAGS } from '../i18n/lang.js';
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
  const paired = pairs(pages);
  const url = (p: string) => xmlEscape(absoluteUrl(site.settings.baseUrl, p));
  const urls = pages.flatMap((p) =>
    p.sitemap
      ? [
          `<url><loc>${url(p.path)}</loc><lastmod>${dates[p.path] ?? lastmod}</lastmod>` +
            `<changefreq>${p.sitemap.changefreq}</changefreq>` +
            `<priority>${p.sitemap.priority.toFixed(1)}</priority>${alternates(paired.get(p.path), url)}</url>`,
        ]
      : [],
  );
  const urlset = paired.size > 0 ? urlsetWithAlternates : plainUrlset;
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

const XHTML_NS = 'http://www.w3.org/1999/xhtml';

const plainUrlset = (urls: readonly string[]) =>
  Buffer.from(`${XML_DECLARATION}<urlset xmlns="${NS}">${urls.join('')}</urlset>`);

const urlsetWithAlternates = (urls: readonly string[]) =>
  Buffer.from(
    `${XML_DECLARATION}<urlset xmlns="${NS}" xmlns:xhtml="${XHTML_NS}">${urls.join('')}</urlset>`,
  );

/** Each indexable page with an indexable translation, by path: both pages, English first. */
function pairs(pages: readonly Page[]): Map<string, readonly Page[]> {
  const indexable = new Map<string, Page>();
  for (const p of pages) if (p.sitemap) indexable.set(p.path, p);
  const out = new Map<string, readonly Page[]>();
  for (const p of indexable.values()) {
    const other = p.alternate ? indexable.get(p.alternate) : undefined;
    if (other) out.set(p.path, p.lang === 'en' ? [p, other] : [other, p]);
  }
  return out;
}

/**
 * Google's sitemap form of hreflang: every language's URL, this one's included, and the
 * English page as x-default, the same on both pages of a pair.
 */
function alternates(pair: readonly Page[] | undefined, url: (p: string) => string): string {
  if (!pair) return '';
  const link = (lang: string, p: string) =>
    `<xhtml:link rel="alternate" hreflang="${lang}" href="${url(p)}"/>`;
  return (
    pair.map((p) => link(LANG_TAGS[p.lang], p.path)).join('') +
    link('x-default', pair[0]?.path ?? '')
  );
}

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
