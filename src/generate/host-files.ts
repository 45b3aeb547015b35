import { createHash } from 'node:crypto';
import { INLINE_SCRIPTS } from '../render/head.js';
import type { SiteSettings } from '../site/schema.js';
import { ASSETS_DIR, basePathOf } from '../urls.js';

/**
 * Google's documented sources for the GA4 tag under a Content-Security-Policy
 * (developers.google.com/tag-platform/security/guides/csp, "Google Analytics 4").
 */
const GA4 = {
  script: ['https://*.googletagmanager.com'],
  img: ['https://*.google-analytics.com', 'https://*.googletagmanager.com'],
  connect: [
    'https://*.google-analytics.com',
    'https://*.analytics.google.com',
    'https://*.googletagmanager.com',
  ],
};

/**
 * Cloudflare's documented sources for Turnstile under a Content-Security-Policy
 * (developers.cloudflare.com/turnstile/reference/content-security-policy): its script and the
 * frame of its challenge.
 */
const TURNSTILE = 'https://challenges.cloudflare.com';

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The Content-Security-Policy the pages work under: only the site's own script and stylesheet
 * (and its one inline script, by hash), the GA4 tag when a measurement id is set, Turnstile when
 * its site key is, and the lead endpoint's origin when it runs elsewhere. JSON-LD blocks are data, never executed, so CSP does
 * not apply to them.
 */
export function contentSecurityPolicy(settings: SiteSettings): string {
  const ga = settings.analyticsId ? GA4 : { script: [], img: [], connect: [] };
  const endpoint = /^https?:\/\//.test(settings.leadEndpoint)
    ? [new URL(settings.leadEndpoint).origin]
    : [];
  const turnstile = settings.turnstileSiteKey ? [TURNSTILE] : [];
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...INLINE_SCRIPTS.map(sha256), ...ga.script, ...turnstile]],
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", ...ga.img]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...endpoint, ...ga.connect]],
    ['form-action', ["'self'", ...endpoint]],
    ...(turnstile.length ? [['frame-src', turnstile] as [string, string[]]] : []),
    ['frame-ancestors', ["'none'"]],
    ['base-uri', ["'self'"]],
    ['object-src', ["'none'"]],
  ];
  return directives.map(([name, sources]) => `${name} ${sources.join(' ')}`).join('; ');
}

/**
 * `_headers`, read by Netlify and Cloudflare Pages (GitHub Pages sets no custom headers). One rule
 * for every response, one for the hashed assets; no header is set by both, because the hosts
 * differ on what two matching rules do with it. HTML is revalidated on every visit by both
 * hosts' default (`Cache-Control: public, max-age=0, must-revalidate`), so no rule repeats it.
 * The owner's own `public/_headers` follows ours. A site served from a folder (/myrepo/) has its
 * rules under it, as its pages are requested.
 */
export function headersFile(settings: SiteSettings, own?: string): string {
  const folder = basePathOf(settings.baseUrl);
  const lines = [
    '# Security headers and cache rules for Netlify and Cloudflare Pages, written by claimsite.',
    '# Add your own rules in public/_headers: they are appended below.',
    `${folder}/*`,
    `  Content-Security-Policy: ${contentSecurityPolicy(settings)}`,
    '  Strict-Transport-Security: max-age=31536000',
    '  X-Content-Type-Options: nosniff',
    '  X-Frame-Options: DENY',
    '  Referrer-Policy: strict-origin-when-cross-origin',
    '  Permissions-Policy: camera=(), microphone=(), geolocation=(), payment=(), usb=(), browsing-topics=()',
    `${folder}/${ASSETS_DIR}/*`,
    '  Cache-Control: public, max-age=31536000, immutable',
  ];
  return `${lines.join('\n')}\n${own ? `\n# From public/_headers\n${own.trimEnd()}\n` : ''}`;
}
