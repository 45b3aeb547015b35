import type { ReactNode } from 'react';
import { LANG_TAGS } from '../../src/i18n/lang.js';
import { DEFAULT_LEAD_VALUES } from '../../src/lead/lead-values.js';
import type { PageContext } from '../../src/render/context.js';
import { documentHead } from '../../src/render/head.js';
import { phoneRules } from '../../src/site/tracking.js';
import { ConsentBanner } from '../components/Consent.js';

/**
 * The one document shell every page is rendered into; its head is written as text. With a
 * measurement id, every page carries the consent banner (the script shows it); the Turnstile
 * site key, the tracking numbers' rules and CallRail's script, when set, are on <html> for the
 * script.
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
      // What a lead is worth by its loss range, for generate_lead's value (with GA4 only).
      data-values={
        ctx.site.settings.analyticsId
          ? JSON.stringify({ ...DEFAULT_LEAD_VALUES, ...ctx.site.settings.leadValues })
          : undefined
      }
      data-turnstile={ctx.site.settings.turnstileSiteKey}
      data-phones={phoneRules(ctx.site)}
      data-callrail={ctx.site.settings.tracking?.callrail}
    >
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: documentHead escapes every value */}
      <head dangerouslySetInnerHTML={{ __html: documentHead(ctx, jsonLd) }} />
      <body>
        {children}
        {ctx.site.settings.analyticsId && (
          <ConsentBanner
            t={ctx.site.t}
            links={ctx.site.links}
            callrail={Boolean(ctx.site.settings.tracking?.callrail)}
          />
        )}
      </body>
    </html>
  );
}
