import type { ReactNode } from 'react';
import { type PageContext, scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { FOOTER_CITIES, topCities } from '../../src/site/model.js';
import { links } from '../../src/urls.js';
import { CallBar } from './CallBar.js';
import { Document } from './Document.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';

/** Shared layout: skip link, header, main, footer. */
export function Layout({
  ctx,
  jsonLd = [],
  form = false,
  children,
}: {
  ctx: PageContext;
  jsonLd?: readonly object[];
  /** The page has the claim form. */
  form?: boolean;
  children: ReactNode;
}) {
  const { siteName, phone, email } = ctx.site.settings;
  const scope = scopeSlug(ctx);
  return (
    <Document ctx={ctx} jsonLd={jsonLd}>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Shared component={Header} props={{ siteName, phone, scope, formOnPage: form }} />
      <main id="main">{children}</main>
      <Shared
        component={CallBar}
        props={{
          phone,
          formHref: form ? `#${links.claimFormId}` : links.cityPage(scope, 'free-consultation'),
        }}
      />
      <Shared
        component={Footer}
        props={{
          siteName,
          phone,
          email,
          scope,
          topCities: topCities(ctx.site, FOOTER_CITIES),
          business: ctx.site.settings.business,
        }}
      />
    </Document>
  );
}
