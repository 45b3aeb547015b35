import type { PageContext } from '../../src/render/context.js';
import { breadcrumbs, business, faqPage } from '../../src/render/structured-data.js';
import { NATIONAL } from '../../src/site/segments.js';
import { Accordion } from '../components/Accordion.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { SiteCallToAction } from '../components/CallToAction.js';
import { Illustration } from '../components/Illustration.js';
import { Section } from '../components/Section.js';
import { Layout } from '../layout/Layout.js';
import { trail } from './shared.js';

/** /faq: five accordion groups, with FAQPage structured data in the head. */
export function FaqPage(ctx: PageContext) {
  const { site } = ctx;
  const { t } = site;
  const { groups } = site.content.faq;
  const crumbs = trail(ctx, t.layout.faq);
  return (
    <Layout
      ctx={ctx}
      jsonLd={[business(site), breadcrumbs(site, crumbs), faqPage(groups.flatMap((g) => g.items))]}
    >
      <Breadcrumbs trail={crumbs} t={site.t} />
      <section className="hero">
        <div className="container hero-split">
          <h1>{t.pages.faqTitle}</h1>
          <p className="lead">{t.faq.lead}</p>
          <nav aria-label={t.faq.topicsLabel}>
            <ul className="chips chips-light">
              {groups.map((g) => (
                <li key={g.id}>
                  <a className="chip" href={`#${g.id}`}>
                    {g.title}
                  </a>
                </li>
              ))}
            </ul>
          </nav>
          <div className="hero-art">
            <Illustration scene="adjuster" />
          </div>
        </div>
      </section>
      {groups.map((g) => (
        <Section key={g.id} id={g.id} title={g.title}>
          <Accordion id={`faq-${g.id}`} items={g.items} />
        </Section>
      ))}
      <SiteCallToAction site={site} scope={NATIONAL} place={t.pages.yourArea} />
    </Layout>
  );
}
