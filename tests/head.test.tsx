import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { escapeHtml } from '../src/html.js';
import { buildPages } from '../src/pages.js';
import type { PageContext } from '../src/render/context.js';
import { documentHead } from '../src/render/head.js';
import { serializeJsonLd } from '../src/render/jsonld.js';
import type { Page } from '../src/routes.js';
import { shareImages } from '../src/share/share-images.js';
import { loadSite } from '../src/site/load.js';
import { absoluteUrl } from '../src/urls.js';
import { BUNDLED_DATA, PAGE_ASSETS } from './helpers.js';

const site = await loadSite(BUNDLED_DATA);
const pages = buildPages(site);
const assets = PAGE_ASSETS;
const ctxFor = (page: Page): PageContext => ({
  site,
  page,
  pages,
  assets,
  share: shareImages(site),
});
const pageAt = (path: string) => {
  const page = pages.find((p) => p.path === path);
  if (!page) throw new Error(`no page ${path}`);
  return page;
};

/** The head as the templates wrote it in JSX before it became text: React's own markup. */
function Alternate({ lang, href }: { lang: string; href: string }) {
  return <link rel="alternate" hrefLang={lang} href={href} />;
}

function reactHead(ctx: PageContext, jsonLd: readonly object[]): string {
  const { page } = ctx;
  const { siteName } = site.settings;
  const branded = `${page.title} | ${siteName}`;
  const title = page.route === 'home' || branded.length > 70 ? page.title : branded;
  const url = absoluteUrl(site.settings.baseUrl, page.path);
  const html = renderToStaticMarkup(
    <html lang={page.lang === 'fr' ? 'fr-CA' : 'en-CA'}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={page.description} />
        {page.sitemap !== null ? (
          <link rel="canonical" href={url} />
        ) : (
          <meta name="robots" content="noindex" />
        )}
        {page.sitemap === null && page.canonical && (
          <link rel="canonical" href={absoluteUrl(site.settings.baseUrl, page.canonical)} />
        )}
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={siteName} />
        <meta property="og:title" content={title} />
        <meta property="og:description" content={page.description} />
        {page.sitemap !== null && <meta property="og:url" content={url} />}
        <meta property="og:locale" content={page.lang === 'fr' ? 'fr_CA' : 'en_CA'} />
        {page.sitemap !== null && page.alternate && (
          <>
            <meta property="og:locale:alternate" content={page.lang === 'fr' ? 'en_CA' : 'fr_CA'} />
            <Alternate lang={page.lang === 'fr' ? 'fr-CA' : 'en-CA'} href={url} />
            <Alternate
              lang={page.lang === 'fr' ? 'en-CA' : 'fr-CA'}
              href={absoluteUrl(site.settings.baseUrl, page.alternate)}
            />
            <Alternate
              lang="x-default"
              href={absoluteUrl(
                site.settings.baseUrl,
                page.lang === 'fr' ? page.alternate : page.path,
              )}
            />
          </>
        )}
        <meta
          property="og:image"
          content={absoluteUrl(site.settings.baseUrl, `/${ctx.share.of(page).file}`)}
        />
        <meta property="og:image:type" content="image/png" />
        <meta property="og:image:width" content="1200" />
        <meta property="og:image:height" content="630" />
        <meta property="og:image:alt" content={ctx.share.of(page).alt} />
        <meta name="twitter:card" content="summary_large_image" />
        <meta name="theme-color" content="#0b3b60" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: the constant the page carries */}
        <script dangerouslySetInnerHTML={{ __html: "document.documentElement.className+=' js'" }} />
        <link rel="stylesheet" href={ctx.assets.css} />
        {jsonLd.length > 0 && (
          <script
            type="application/ld+json"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: serializeJsonLd escapes <, > and &
            dangerouslySetInnerHTML={{
              __html: serializeJsonLd(jsonLd.length === 1 ? jsonLd[0] : jsonLd),
            }}
          />
        )}
        <script src={ctx.assets.js} defer />
      </head>
    </html>,
  );
  // React writes the attribute as its JSX name; HTML names it in lower case.
  return (
    html
      .replace(/^<html lang="[a-z]{2}-CA"><head>/, '')
      // React writes the attribute as its prop is spelled; HTML's name is lower case.
      .replaceAll(' hrefLang="', ' hreflang="')
      .replace('</head></html>', '')
      .replace('<meta charSet=', '<meta charset=')
  );
}

describe('the document head, written as text', () => {
  const jsonLd = [{ '@type': 'Thing', name: 'A </script> & <b>' }, { '@type': 'Place' }];

  it('is the markup React writes for the same elements, on every kind of page', () => {
    for (const path of [
      '/',
      '/toronto/',
      '/st-johns/public-adjusters/',
      '/val-dor/about/',
      '/montreal/cote-des-neiges-notre-dame-de-grace/',
      '/fr/montreal/',
      '/fr/montreal/experts-en-sinistre/',
      '/sitemap/',
      '/confirmation/',
      '/404.html',
    ]) {
      const ctx = ctxFor(pageAt(path));
      expect(documentHead(ctx, jsonLd), path).toBe(reactHead(ctx, jsonLd));
      expect(documentHead(ctx, [jsonLd[0] as object]), path).toBe(
        reactHead(ctx, [jsonLd[0] as object]),
      );
      expect(documentHead(ctx, []), path).toBe(reactHead(ctx, []));
    }
  });

  it('escapes text and attribute values from the data, as React does', () => {
    const page: Page = {
      ...pageAt('/toronto/'),
      title: `Fire "damage" & <script>alert('x')</script>`,
      description: `It's < 5 & > 2 "quoted"`,
      path: `/toronto/"><script>`,
    };
    const ctx = ctxFor(page);
    const head = documentHead(ctx, jsonLd);
    expect(head).toBe(reactHead(ctx, jsonLd));
    expect(head).not.toContain('<script>alert');
    expect(head).toContain(
      '<title>Fire &quot;damage&quot; &amp; &lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; | ClaimRight Canada</title>',
    );
  });

  it('escapes every special character the way React escapes text', () => {
    const tricky = `a&b<c>d"e'f&amp;`;
    expect(escapeHtml(tricky)).toBe(renderToStaticMarkup(<p>{tricky}</p>).slice(3, -4));
    expect(escapeHtml(tricky)).toBe('a&amp;b&lt;c&gt;d&quot;e&#x27;f&amp;amp;');
    // Repeated calls give the same answer (no state kept between them).
    expect(escapeHtml(tricky)).toBe(escapeHtml(tricky));
    expect(escapeHtml('plain text')).toBe('plain text');
  });
});
