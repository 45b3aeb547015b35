import type { PageContext } from '../../src/render/context.js';
import { breadcrumbs, business } from '../../src/render/structured-data.js';
import { renderMarkdown } from '../../src/site/markdown.js';
import { NATIONAL } from '../../src/site/segments.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { SiteCallToAction } from '../components/CallToAction.js';
import { Illustration } from '../components/Illustration.js';
import { Layout } from '../layout/Layout.js';
import { trail } from './shared.js';

export function BlogPage(ctx: PageContext) {
  const { site } = ctx;
  const { t, links } = site;
  const crumbs = trail(ctx, t.layout.footerBlog);
  return (
    <Layout ctx={ctx} jsonLd={[business(site), breadcrumbs(site, crumbs)]}>
      <Breadcrumbs trail={crumbs} t={site.t} />
      <section className="hero">
        <div className="container hero-split">
          <h1>{t.blog.heroTitle}</h1>
          <p className="lead">{t.blog.lead}</p>
          <div className="hero-art">
            <Illustration scene="documents" />
          </div>
        </div>
      </section>
      <section className="section" aria-label={t.blog.articlesLabel}>
        <ul className="container post-list">
          {site.content.posts.map((p) => (
            <li key={p.slug} className="card">
              <h2>
                <a href={links.post(p)}>{p.title}</a>
              </h2>
              <p className="muted">
                <time dateTime={p.date}>{site.format.longDate(p.date)}</time>
              </p>
              <p>{p.description}</p>
            </li>
          ))}
        </ul>
      </section>
      <SiteCallToAction site={site} scope={NATIONAL} place={t.pages.yourArea} />
    </Layout>
  );
}

export function BlogPostPage(ctx: PageContext) {
  const { site, page } = ctx;
  const { t, links } = site;
  const post = page.post;
  if (!post) throw new Error(`blog page ${page.path} has no post`);
  const crumbs = [
    { name: t.layout.home, path: site.paths.home },
    { name: t.layout.footerBlog, path: site.paths.page('blog') },
    { name: post.title, path: page.path },
  ].map((c) => ({ ...c, href: links.href(c.path) }));
  const article = {
    '@context': 'https://schema.org',
    '@type': 'Article',
    headline: post.title,
    description: post.description,
    datePublished: post.date,
    author: { '@type': 'Organization', name: post.author },
    publisher: { '@id': `${site.settings.baseUrl}/#business` },
    mainEntityOfPage: `${site.settings.baseUrl}${page.path}`,
  };
  return (
    <Layout ctx={ctx} jsonLd={[business(site), breadcrumbs(site, crumbs), article]}>
      <Breadcrumbs trail={crumbs} t={site.t} />
      <article className="section">
        <div className="container prose">
          <h1>{post.title}</h1>
          <p className="muted">
            <time dateTime={post.date}>{site.format.longDate(post.date)}</time> · {post.author}
          </p>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown from data/, raw HTML escaped by renderMarkdown */}
          <div dangerouslySetInnerHTML={{ __html: renderMarkdown(post.markdown, site.basePath) }} />
        </div>
      </article>
      <SiteCallToAction site={site} scope={NATIONAL} place={t.pages.yourArea} />
    </Layout>
  );
}
