import type { ReactNode } from 'react';
import { type PageContext, scopeSlug } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { FOOTER_CITIES, topCities } from '../../src/site/model.js';
import { businessShown } from '../../src/site/service-area.js';
import { links as englishLinks } from '../../src/urls.js';
import { brandOf } from '../components/Logo.js';
import { SampleSettings } from '../components/SampleLabel.js';
import { CallBar } from './CallBar.js';
import { Document } from './Document.js';
import { Footer } from './Footer.js';
import { Header } from './Header.js';

/**
 * Shared layout: skip link, header, the note of the settings still sample (under the sticky
 * header, which the menu's panel is placed below), main, footer.
 */
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
  const { site, page } = ctx;
  const { t, links } = site;
  const phone = site.format.phone(site.phone);
  const tel = links.tel(site.phone);
  const scope = scopeSlug(ctx);
  const other = page.alternate ? (page.lang === 'en' ? 'fr' : 'en') : null;
  return (
    <Document ctx={ctx} jsonLd={jsonLd}>
      <a className="skip-link" href="#main">
        {t.layout.skipLink}
      </a>
      <Shared
        component={Header}
        props={{
          brand: brandOf(site),
          phone,
          tel,
          scope,
          formOnPage: form,
          blog: blogHref(site),
          t,
          links,
          // Only a page with a translation has a header of its own.
          alternate: page.alternate ? links.href(page.alternate) : null,
          alternateLang: other,
          cityIndex: ctx.assets.cityIndex,
          basePath: site.basePath,
        }}
      />
      <SampleSettings sample={site.settings.sample} t={t} />
      <main id="main">{children}</main>
      <Shared
        component={CallBar}
        props={{
          phone,
          tel,
          formHref: form ? `#${links.claimFormId}` : links.cityPage(scope, 'free-consultation'),
          t,
        }}
      />
      <SiteFooter ctx={ctx} phone={phone} tel={tel} scope={scope} />
    </Document>
  );
}

/** The footer, the same on every page of a scope (rendered once for them). */
function SiteFooter({
  ctx,
  phone,
  tel,
  scope,
}: {
  ctx: PageContext;
  phone: string;
  tel: string;
  scope: string;
}) {
  const { site } = ctx;
  return (
    <Shared
      component={Footer}
      props={{
        siteName: site.settings.siteName,
        phone,
        tel,
        email: site.settings.email,
        scope,
        topCities: topCities(site, FOOTER_CITIES),
        business: businessShown(site),
        t: site.t,
        links: site.links,
        // The blog is English only: a translation's footer does not send readers to it.
        blog: blogHref(site),
        analytics: Boolean(site.settings.analyticsId),
      }}
    />
  );
}

/** The blog's link, where the page's language has it. */
function blogHref(site: PageContext['site']): string | null {
  const path = site.localize(englishLinks.page('blog'));
  return path === null ? null : site.links.href(path);
}
