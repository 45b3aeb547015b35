import type { ReactNode } from 'react';
import { LANG_TAGS } from '../../src/i18n/lang.js';
import type { PageContext } from '../../src/render/context.js';
import { documentHead } from '../../src/render/head.js';

/** The one document shell every page is rendered into; its head is written as text. */
export function Document({
  ctx,
  jsonLd,
  children,
}: {
  ctx: PageContext;
  jsonLd: readonly object[];
  children: ReactNode;
}) {
  return (
    <html lang={LANG_TAGS[ctx.page.lang]} data-ga={ctx.site.settings.analyticsId}>
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: documentHead escapes every value */}
      <head dangerouslySetInnerHTML={{ __html: documentHead(ctx, jsonLd) }} />
      <body>{children}</body>
    </html>
  );
}
