import { renderToStaticMarkup } from 'react-dom/server';
import type { Template } from '../../templates/pages/index.js';
import type { RouteId } from '../routes.js';
import type { PageContext } from './context.js';
import { type FragmentCache, renderWith } from './fragments.js';

export class RenderError extends Error {
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
  try {
    const html = renderWith(fragments, () => renderToStaticMarkup(templates[ctx.page.route](ctx)));
    return `<!DOCTYPE html>${fragments ? fragments.fill(html) : html}`;
  } catch (err) {
    throw new RenderError(ctx.page.path, err);
  }
}
