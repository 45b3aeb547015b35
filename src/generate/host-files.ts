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

/**
 * What Google's guide adds for GA4 measuring for advertising (Google signals, conversions for
 * Google Ads): its requests to DoubleClick and Google's own domains, Canada's among them. Only
 * with the visitor's advertising consent does the tag make them.
 */
const GOOGLE_ADS = ['https://*.g.doubleclick.net', 'https://*.google.com', 'https://*.google.ca'];

/**
 * CallRail's swap.js comes from its CDN and asks CallRail's own hosts for the visit's number;
 * loaded only with the visitor's advertising consent.
 */
const CALLRAIL = { script: 'https://cdn.callrail.com', connect: 'https://*.callrail.com' };

const sha256 = (text: string) =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/** The providers the settings name, each with the sources it needs. */
function providers(settings: SiteSettings) {
  const ga = settings.analyticsId
    ? { ...GA4, img: [...GA4.img, ...GOOGLE_ADS], connect: [...GA4.connect, ...GOOGLE_ADS] }
    : { script: [], img: [], connect: [] };
  const callrail = settings.tracking?.callrail ? CALLRAIL : null;
  return {
    script: [
      ...ga.script,
      ...(settings.turnstileSiteKey ? [TURNSTILE] : []),
      ...(callrail ? [callrail.script] : []),
    ],
    img: ga.img,
    connect: [...ga.connect, ...(callrail ? [callrail.connect] : [])],
    frame: [
      ...(settings.turnstileSiteKey ? [TURNSTILE] : []),
      ...(settings.booking ? [new URL(settings.booking.calendar).origin] : []),
    ],
  };
}

/**
 * The Content-Security-Policy the pages work under, derived from the settings: only the site's
 * own script and stylesheet (and its one inline script, by hash), and each provider the settings
 * name, with what its own documentation asks: the GA4 tag (and its advertising measurement)
 * when a measurement id is set, Turnstile when its site key is, CallRail's script when its
 * swap.js is given, the booking calendar's frame when one is, and the lead endpoint's origin
 * when it runs elsewhere. JSON-LD blocks are data, never executed, so CSP does not apply to them.
 */
export function contentSecurityPolicy(settings: SiteSettings): string {
  const endpoint = /^https?:\/\//.test(settings.leadEndpoint)
    ? [new URL(settings.leadEndpoint).origin]
    : [];
  const p = providers(settings);
  const directives: Array<[string, string[]]> = [
    ['default-src', ["'self'"]],
    ['script-src', ["'self'", ...INLINE_SCRIPTS.map(sha256), ...p.script]],
    ['style-src', ["'self'"]],
    ['img-src', ["'self'", ...p.img]],
    ['font-src', ["'self'"]],
    ['connect-src', ["'self'", ...endpoint, ...p.connect]],
    ['form-action', ["'self'", ...endpoint]],
    ...(p.frame.length ? [['frame-src', p.frame] as [string, string[]]] : []),
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
