import type { ReactNode } from 'react';
import { type PageContext, scopeSlug } from '../../src/render/context.js';
import { Memo } from '../../src/render/fragments.js';
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
      <Memo id={`header:${scope}`}>
        {() => <Header siteName={siteName} phone={phone} scope={scope} />}
      </Memo>
      <main id="main">{children}</main>
      <Memo id={`footer:${scope}`}>
        {() => (
          <Footer
            siteName={siteName}
            phone={phone}
            email={email}
            scope={scope}
            topCities={topCities(ctx.site, 4)}
          />
        )}
      </Memo>
    </Document>
  );
}
