import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import type { Template } from '../../templates/pages/index.js';
import type { RouteId } from '../routes.js';
import { inLanguage } from '../site/model.js';
import type { PageContext } from './context.js';
import { type FragmentCache, FragmentContext, type PageBytes } from './fragments.js';
import { keepNumbersWhole } from './keep-numbers-whole.js';

class RenderError extends Error {
  constructor(
    readonly pagePath: string,
    cause: unknown,
  ) {
    super(
      `Failed to render page ${pagePath}: ${cause instanceof Error ? cause.message : String(cause)}`,
      {
        cause,
      },
    );
    this.name = 'RenderError';
  }
}

/** One page to a complete HTML document; shared fragments come from `fragments` when given. */
export function renderPage(
  ctx: PageContext,
  templates: Record<RouteId, Template>,
  fragments?: FragmentCache,
): string {
  const html = renderBody(ctx, templates, fragments);
  return `<!DOCTYPE html>${fragments ? fragments.fill(html) : html}`;
}

/** As `renderPage`, as the UTF-8 bytes the build writes, assembled where they are written. */
export function renderPageBytes(
  ctx: PageContext,
  templates: Record<RouteId, Template>,
  fragments: FragmentCache,
): PageBytes {
  return fragments.assemble(`<!DOCTYPE html>${renderBody(ctx, templates, fragments)}`);
}

function renderBody(
  ctx: PageContext,
  templates: Record<RouteId, Template>,
  fragments: FragmentCache | undefined,
): string {
  try {
    // A page is rendered with the site in its language: its texts, links and formats.
    const local =
      ctx.page.lang === ctx.site.lang ? ctx : { ...ctx, site: inLanguage(ctx.site, ctx.page.lang) };
    const page = templates[ctx.page.route](local);
    return keepNumbersWhole(
      renderToStaticMarkup(
        fragments ? createElement(FragmentContext.Provider, { value: fragments }, page) : page,
      ),
    );
  } catch (err) {
    throw new RenderError(ctx.page.path, err);
  }
}
