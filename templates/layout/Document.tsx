import type { ReactNode } from 'react';
import { LANG_TAGS } from '../../src/i18n/lang.js';
import type { PageContext } from '../../src/render/context.js';
import { documentHead } from '../../src/render/head.js';
import { ConsentBanner } from '../components/Consent.js';

/**
 * The one document shell every page is rendered into; its head is written as text. With a
 * measurement id, every page carries the consent banner (the script shows it); the Turnstile
 * site key, when set, is on <html> for the script.
 */
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
    <html
      lang={LANG_TAGS[ctx.page.lang]}
      data-ga={ctx.site.settings.analyticsId}
      data-turnstile={ctx.site.settings.turnstileSiteKey}
    >
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: documentHead escapes every value */}
      <head dangerouslySetInnerHTML={{ __html: documentHead(ctx, jsonLd) }} />
      <body>
        {children}
        {ctx.site.settings.analyticsId && <ConsentBanner t={ctx.site.t} links={ctx.site.links} />}
      </body>
    </html>
  );
}
