import { escapeHtml } from '../html.js';
import { LANG_TAGS, type Lang, OG_LOCALES } from '../i18n/lang.js';
import { memoizeRecent } from '../memo.js';
import { SHARE_HEIGHT, SHARE_WIDTH, type ShareImage } from '../share/share-images.js';
import { absoluteUrl } from '../urls.js';
import type { PageContext } from './context.js';
import { serializeJsonLd } from './jsonld.js';

/**
 * The document's <head>, written as text: the shell around what React renders. Every page has
 * one, and React 19 handles each <title>, <meta> and <link> as an element it may hoist; as
 * text it costs next to nothing (docs/how-a-build-works.md). Values are escaped as React
 * escapes them, so the markup reads the same.
 */
export function documentHead(ctx: PageContext, jsonLd: readonly object[]): string {
  const { site, page, assets } = ctx;
  const { siteName } = site.settings;
  const { links } = site;
  // Search results show about 60-70 characters: the brand goes only where it fits.
  const branded = `${page.title} | ${siteName}`;
  const title = escapeHtml(page.route === 'home' || branded.length > 70 ? page.title : branded);
  const description = escapeHtml(page.description);
  const url = escapeHtml(absoluteUrl(site.settings.baseUrl, page.path));
  const name = escapeHtml(siteName);
  return (
    '<meta charset="utf-8"/>' +
    '<meta name="viewport" content="width=device-width, initial-scale=1"/>' +
    `<title>${title}</title>` +
    `<meta name="description" content="${description}"/>` +
    (page.sitemap !== null
      ? `<link rel="canonical" href="${url}"/>`
      : '<meta name="robots" content="noindex"/>' +
        (page.canonical
          ? `<link rel="canonical" href="${escapeHtml(absoluteUrl(site.settings.baseUrl, page.canonical))}"/>`
          : '')) +
    '<meta property="og:type" content="website"/>' +
    `<meta property="og:site_name" content="${name}"/>` +
    `<meta property="og:title" content="${title}"/>` +
    `<meta property="og:description" content="${description}"/>` +
    (page.sitemap !== null ? `<meta property="og:url" content="${url}"/>` : '') +
    `<meta property="og:locale" content="${OG_LOCALES[page.lang]}"/>` +
    translations(ctx) +
    shareTags(ctx.share.of(page)) +
    `<meta name="theme-color" content="${site.theme.primary}"/>` +
    `<link rel="icon" href="${escapeHtml(links.favicon)}" type="image/svg+xml"/>` +
    // Marks script support before first paint, so script-only styles never flash.
    `<script>${MARK_JS}</script>` +
    // The font's faces, asked for with the stylesheet rather than after it: a face that is not
    // there by the first paint is not used on this page (font-display: optional, site/theme.ts).
    assets.fonts
      .map(
        (font) =>
          `<link rel="preload" href="${escapeHtml(links.href(font))}" as="font" type="font/woff2" crossorigin=""/>`,
      )
      .join('') +
    `<link rel="stylesheet" href="${escapeHtml(links.href(assets.css))}"/>` +
    (jsonLd.length > 0
      ? // serializeJsonLd escapes <, > and &, so no value can close the element.
        `<script type="application/ld+json">${serializeJsonLd(jsonLd.length === 1 ? jsonLd[0] : jsonLd)}</script>`
      : '') +
    `<script src="${escapeHtml(links.href(assets.js))}" defer=""></script>`
  );
}

/**
 * An indexable page's translation, for search engines (hreflang): both languages' URLs, this
 * page's included, and the English one as x-default, absolute, the same on both pages. A page
 * left out of the index (noindex) names none: its canonical page does.
 */
function translations(ctx: PageContext): string {
  const { page, site } = ctx;
  if (page.sitemap === null || !page.alternate) return '';
  const other: Lang = page.lang === 'en' ? 'fr' : 'en';
  const english = page.lang === 'en' ? page.path : page.alternate;
  const link = (hreflang: string, p: string) =>
    `<link rel="alternate" hreflang="${hreflang}" href="${escapeHtml(absoluteUrl(site.settings.baseUrl, p))}"/>`;
  return (
    `<meta property="og:locale:alternate" content="${OG_LOCALES[other]}"/>` +
    link(LANG_TAGS[page.lang], page.path) +
    link(LANG_TAGS[other], page.alternate) +
    link('x-default', english)
  );
}

/** A share image's tags: the same on all of a city's pages, so written once per image. */
const shareTags = memoizeRecent(
  (image: ShareImage) =>
    `<meta property="og:image" content="${escapeHtml(image.url)}"/>` +
    '<meta property="og:image:type" content="image/png"/>' +
    `<meta property="og:image:width" content="${SHARE_WIDTH}"/>` +
    `<meta property="og:image:height" content="${SHARE_HEIGHT}"/>` +
    `<meta property="og:image:alt" content="${escapeHtml(image.alt)}"/>` +
    // X (Twitter) shows the large picture only when asked; it reads og:image for it.
    '<meta name="twitter:card" content="summary_large_image"/>',
);

const MARK_JS = "document.documentElement.className+=' js'";

/** The pages' inline scripts, exactly as written: the Content-Security-Policy allows them by hash. */
export const INLINE_SCRIPTS: readonly string[] = [MARK_JS];
