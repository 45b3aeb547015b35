import { renderToStaticMarkup } from 'react-dom/server';
import type { Template } from '../../templates/pages/index.js';
import type { RouteId } from '../routes.js';
import type { PageContext } from './context.js';

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

/** One page to a complete HTML document. */
export function renderPage(ctx: PageContext, templates: Record<RouteId, Template>): string {
  try {
    return `<!DOCTYPE html>${renderToStaticMarkup(templates[ctx.page.route](ctx))}`;
  } catch (err) {
    throw new RenderError(ctx.page.path, err);
  }
}
