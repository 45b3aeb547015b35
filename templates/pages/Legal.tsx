import { fill } from '../../src/i18n/catalogue.js';
import type { PageContext } from '../../src/render/context.js';
import { breadcrumbs, business } from '../../src/render/structured-data.js';
import { renderMarkdown } from '../../src/site/markdown.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { Layout } from '../layout/Layout.js';
import { trail } from './shared.js';

/** /privacy and /terms, from Markdown in data/pages/. */
export function LegalPage(ctx: PageContext) {
  const { site, page } = ctx;
  const doc = page.route === 'privacy' ? site.content.privacy : site.content.terms;
  const crumbs = trail(ctx, doc.title);
  return (
    <Layout ctx={ctx} jsonLd={[business(site), breadcrumbs(site, crumbs)]}>
      <Breadcrumbs trail={crumbs} t={site.t} />
      <article className="section">
        <div className="container prose">
          <h1>{doc.title}</h1>
          <p className="muted">{fill(site.t.legal.updated, { date: doc.updated })}</p>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown from data/, raw HTML escaped by renderMarkdown */}
          <div dangerouslySetInnerHTML={{ __html: renderMarkdown(doc.markdown, site.basePath) }} />
        </div>
      </article>
    </Layout>
  );
}
