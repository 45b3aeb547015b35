import type { Lang } from '../i18n/lang.js';
import { LANG_TAGS } from '../i18n/lang.js';
import type { ChangeFreq } from '../routes.js';
import type { Site } from '../site/model.js';
import { absoluteUrl, links } from '../urls.js';
import type { Staging } from './staging.js';

/** sitemaps.org allows 50,000 URLs a file; we split well before it. */
const SITEMAP_SPLIT = 45_000;

interface SitemapFile {
  file: string;
  contents: Buffer;
}

/** What sitemap.xml says of a page (a Page, or what a build keeps of an indexable one). */
interface SitemapPage {
  path: string;
  lang: Lang;
  /** The path of its translation: listed as an alternate when that page is in the sitemap too. */
  alternate: string | null;
  /** null: not listed. */
  sitemap: { priority: number; changefreq: ChangeFreq } | null;
}

/**
 * sitemap.xml from the page list: exactly the indexable pages. Above `split` URLs, numbered
 * files (sitemap-1.xml, …) and sitemap.xml as their index.
 *
 * Written directly: four elements a URL need no library, and the `sitemap` package's streams
 * and URL normalising cost more than the rest of it (docs/how-a-build-works.md). The tests
 * parse the result with that package and validate it against the sitemaps.org schema.
 */
export function buildSitemaps(
  site: Site,
  pages: readonly SitemapPage[],
  /** The i-th page's lastmod; the build's date where it gives none. */
  dateOf: (page: SitemapPage, i: number) => string | undefined,
  lastmod: string,
  split = SITEMAP_SPLIT,
): SitemapFile[] {
  const files = [...sitemapFiles(site, pages, dateOf, lastmod, split)];
  // sitemap.xml (the index, when there are parts) comes last from sitemapFiles: listed first.
  const index = files.pop();
  return index ? [index, ...files] : [];
}

/** buildSitemaps a file at a time: each made from its own URLs, and let go once staged. */
function* sitemapFiles(
  site: Site,
  pages: readonly SitemapPage[],
  dateOf: (page: SitemapPage, i: number) => string | undefined,
  lastmod: string,
  split = SITEMAP_SPLIT,
): Generator<SitemapFile> {
  const paired = pairs(pages);
  const url = (p: string) => xmlEscape(absoluteUrl(site.settings.baseUrl, p));
  const open = paired.size > 0 ? URLSET_WITH_ALTERNATES : URLSET;
  // Each file made from its own URLs alone: a sitemap of 45,000 URLs is a few megabytes, the
  // whole list of a large site many times that.
  const files: string[] = [];
  let urls = new Urlset(open);
  const close = (): SitemapFile => {
    files.push(`sitemap-${files.length + 1}.xml`);
    const made = { file: files.at(-1) ?? '', contents: urls.bytes() };
    urls = new Urlset(open);
    return made;
  };
  for (const [i, p] of pages.entries()) {
    if (!p.sitemap) continue;
    if (urls.count === split) yield close();
    urls.add(
      `<url><loc>${url(p.path)}</loc><lastmod>${dateOf(p, i) ?? lastmod}</lastmod>` +
        `<changefreq>${p.sitemap.changefreq}</changefreq>` +
        `<priority>${p.sitemap.priority.toFixed(1)}</priority>${alternates(paired.get(p.path), url)}</url>`,
    );
  }
  if (files.length === 0) {
    yield { file: 'sitemap.xml', contents: urls.bytes() };
    return;
  }
  yield close();
  const entries = files.map(
    (f) =>
      `<sitemap><loc>${xmlEscape(absoluteUrl(site.settings.baseUrl, `/${f}`))}</loc>` +
      `<lastmod>${lastmod}</lastmod></sitemap>`,
  );
  yield {
    file: 'sitemap.xml',
    contents: Buffer.from(
      `${XML_DECLARATION}<sitemapindex xmlns="${NS}">${entries.join('')}</sitemapindex>`,
    ),
  };
}

export function robotsTxt(site: Site): string {
  return `User-agent: *\nAllow: /\n\nSitemap: ${absoluteUrl(site.settings.baseUrl, links.sitemapXml)}\n`;
}

const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>';
const NS = 'http://www.sitemaps.org/schemas/sitemap/0.9';

const XHTML_NS = 'http://www.w3.org/1999/xhtml';

const URLSET = `${XML_DECLARATION}<urlset xmlns="${NS}">`;
const URLSET_WITH_ALTERNATES = `${XML_DECLARATION}<urlset xmlns="${NS}" xmlns:xhtml="${XHTML_NS}">`;

/**
 * A urlset file's bytes, encoded a megabyte at a time as its URLs come: 45,000 URLs are about
 * 20 MB, which as strings, then joined, then encoded, were held three times over.
 */
class Urlset {
  count = 0;
  private readonly chunks: Buffer[] = [];
  private batch: string;

  constructor(open: string) {
    this.batch = open;
  }

  add(url: string): void {
    this.batch += url;
    this.count++;
    if (this.batch.length >= 1 << 20) {
      this.chunks.push(Buffer.from(this.batch));
      this.batch = '';
    }
  }

  bytes(): Buffer {
    return Buffer.concat([...this.chunks, Buffer.from(`${this.batch}</urlset>`)]);
  }
}

/** Each indexable page with an indexable translation, by path: both pages, English first. */
function pairs(pages: readonly SitemapPage[]): Map<string, readonly SitemapPage[]> {
  const indexable = new Map<string, SitemapPage>();
  for (const p of pages) if (p.sitemap) indexable.set(p.path, p);
  const out = new Map<string, readonly SitemapPage[]>();
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
function alternates(pair: readonly SitemapPage[] | undefined, url: (p: string) => string): string {
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
 * Stages sitemap.xml (and its parts) from the indexable pages and their dates. Made again on
 * every build, in a few milliseconds a thousand pages: a file whose bytes did not change is
 * left as it was (see StageWriter).
 */
export function stageSitemap(
  staging: Staging,
  site: Site,
  indexable: readonly SitemapPage[],
  dates: readonly string[],
  lastmod: string,
): void {
  for (const s of sitemapFiles(site, indexable, (_, i) => dates[i], lastmod))
    staging.put(s.file, s.contents);
}
