import type { ReactNode } from 'react';
import { type PageContext, scopeSlug } from '../../src/render/context.js';
import { topCities } from '../../src/site/model.js';
import { Document } from './Document.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';

/** Shared layout: skip link, header, main, footer (SPEC §2). */
export function Layout({
  ctx,
  jsonLd = [],
  children,
}: {
  ctx: PageContext;
  jsonLd?: readonly object[];
  children: ReactNode;
}) {
  const { siteName, phone, email } = ctx.site.settings;
  const scope = scopeSlug(ctx);
  return (
    <Document ctx={ctx} jsonLd={jsonLd}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Header siteName={siteName} phone={phone} scope={scope} />
      <main id="main">{children}</main>
      <Footer
        siteName={siteName}
        phone={phone}
        email={email}
        scope={scope}
        topCities={topCities(ctx.site, 4)}
      />
    </Document>
  );
}
