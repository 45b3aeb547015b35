import type { PageContext } from '../../src/render/context.js';
import { Shared } from '../../src/render/fragments.js';
import { breadcrumbs, business } from '../../src/render/structured-data.js';
import { formatLongDate } from '../../src/site/format.js';
import { renderMarkdown } from '../../src/site/markdown.js';
import { NATIONAL } from '../../src/site/segments.js';
import { links } from '../../src/urls.js';
import { Breadcrumbs } from '../components/Breadcrumbs.js';
import { CallToAction } from '../components/CallToAction.js';
import { Layout } from '../layout/Layout.js';
import { trail } from './shared.js';

export function BlogPage(ctx: PageContext) {
  const { site } = ctx;
  const crumbs = trail(ctx, 'Blog');
  return (
    <Layout ctx={ctx} jsonLd={[business(site), breadcrumbs(site, crumbs)]}>
      <Breadcrumbs trail={crumbs} />
      <section className="hero">
        <div className="container">
          <h1>Insurance Claim Guides</h1>
          <p className="lead">
            Practical help for Canadian property owners dealing with damage and an insurance claim.
          </p>
        </div>
      </section>
      <section className="section" aria-label="Articles">
        <ul className="container post-list">
          {site.content.posts.map((p) => (
            <li key={p.slug} className="card">
              <h2>
                <a href={links.post(p)}>{p.title}</a>
              </h2>
              <p className="muted">
                <time dateTime={p.date}>{formatLongDate(p.date)}</time>
              </p>
              <p>{p.description}</p>
            </li>
          ))}
        </ul>
      </section>
      <Shared
        component={CallToAction}
        props={{ phone: site.settings.phone, scope: NATIONAL, place: 'your area' }}
      />
    </Layout>
  );
}

export function BlogPostPage(ctx: PageContext) {
  const { site, page } = ctx;
  const post = page.post;
  if (!post) throw new Error(`blog page ${page.path} has no post`);
  const crumbs = [
    { name: 'Home', path: '/' },
    { name: 'Blog', path: links.page('blog') },
    { name: post.title, path: page.path },
  ];
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
      <Breadcrumbs trail={crumbs} />
      <article className="section">
        <div className="container prose">
          <h1>{post.title}</h1>
          <p className="muted">
            <time dateTime={post.date}>{formatLongDate(post.date)}</time> · {post.author}
          </p>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Markdown from data/, raw HTML escaped by renderMarkdown */}
          <div dangerouslySetInnerHTML={{ __html: renderMarkdown(post.markdown) }} />
        </div>
      </article>
      <Shared
        component={CallToAction}
        props={{ phone: site.settings.phone, scope: NATIONAL, place: 'your area' }}
      />
    </Layout>
  );
}
