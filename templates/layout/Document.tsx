import type { ReactNode } from 'react';
import type { PageContext } from '../../src/render/context.js';
import { serializeJsonLd } from '../../src/render/jsonld.js';
import { canonicalUrl } from '../../src/routes.js';

const MARK_JS = "document.documentElement.className+=' js'";

/** The one document shell every page is rendered into. */
export function Document({
  ctx,
  jsonLd,
  children,
}: {
  ctx: PageContext;
  jsonLd: readonly object[];
  children: ReactNode;
}) {
  const { site, page, assets } = ctx;
  const { siteName } = site.settings;
  // Search results show about 60-70 characters: the brand goes only where it fits.
  const branded = `${page.title} | ${siteName}`;
  const title = page.route === 'home' || branded.length > 70 ? page.title : branded;
  const url = canonicalUrl(site, page.path);
  return (
    <html lang="en-CA" data-ga={site.settings.analyticsId}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{title}</title>
        <meta name="description" content={page.description} />
        {page.indexable ? (
          <link rel="canonical" href={url} />
        ) : (
          <meta name="robots" content="noindex" />
        )}
        <meta property="og:type" content="website" />
        <meta property="og:site_name" content={siteName} />
        <meta property="og:title" content={title} />
        <meta property="og:description" content={page.description} />
        <meta property="og:url" content={url} />
        <meta property="og:locale" content="en_CA" />
        <meta name="theme-color" content="#0b3b60" />
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
        {/* Marks script support before first paint, so script-only styles never flash. */}
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: a constant, written here, no data */}
        <script dangerouslySetInnerHTML={{ __html: MARK_JS }} />
        <link rel="stylesheet" href={assets.css} />
        {jsonLd.length > 0 && (
          <script
            type="application/ld+json"
            // biome-ignore lint/security/noDangerouslySetInnerHtml: serializeJsonLd escapes <, > and &
            dangerouslySetInnerHTML={{
              __html: serializeJsonLd(jsonLd.length === 1 ? jsonLd[0] : jsonLd),
            }}
          />
        )}
        <script src={assets.js} defer />
      </head>
      <body>{children}</body>
    </html>
  );
}
