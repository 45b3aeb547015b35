import { keepFirstTouch, landingUrl } from './attribution.js';
import { type Choice, initConsent, storedChoice } from './consent.js';

type Gtag = (...args: unknown[]) => void;
const w = window as unknown as { dataLayer?: unknown[]; gtag?: Gtag } & Record<string, unknown>;

let id = '';
let on = false;
let loaded = false;
/** The purposes the visitor has accepted on this page. */
let choice: Choice = { analytics: false, ads: false };

// gtag.js reads the arguments object itself, so it is pushed as it is.
const gtag: Gtag = function gtag() {
  // biome-ignore lint/complexity/noArguments: the tag's documented contract
  w.dataLayer?.push(arguments);
};

const state = (granted: boolean) => (granted ? 'granted' : 'denied');

/**
 * Consent Mode v2, purpose by purpose: analytics_storage follows Analytics; ad_storage and
 * ad_user_data follow Advertising; ad_personalization is never granted (no personalised ads).
 */
const signals = (c: Choice) => ({
  ad_storage: state(c.ads),
  ad_user_data: state(c.ads),
  ad_personalization: 'denied',
  analytics_storage: state(c.analytics),
});

/**
 * The GA4 tag, loaded once a purpose is accepted (basic consent mode: nothing before). A choice
 * made on a page other than the visit's landing page first replays the landing page's page_view,
 * with its own address (its campaign and click id), so the visit keeps where it came from.
 */
function start(fresh: boolean): void {
  on = true;
  w[`ga-disable-${id}`] = false;
  if (loaded) return void gtag('consent', 'update', signals(choice));
  loaded = true;
  w.dataLayer = w.dataLayer || [];
  w.gtag = gtag;
  gtag('consent', 'default', signals({ analytics: false, ads: false }));
  gtag('consent', 'update', signals(choice));
  gtag('js', new Date());
  gtag('config', id, { send_page_view: false });
  // Asked on every first start, so a landing the tag saw itself is not replayed later.
  const landing = landingUrl(location);
  if (fresh && landing)
    gtag('event', 'page_view', { page_location: landing, page_path: new URL(landing).pathname });
  gtag('event', 'page_view', {
    page_path: location.pathname + location.search,
    page_location: location.href,
  });
  const s = document.createElement('script');
  s.async = true;
  s.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  document.head.appendChild(s);
}

/** Removes this site's cookies whose name matches, on every parent domain of the host. */
function removeCookies(name: RegExp): void {
  const host = location.hostname.split('.');
  for (const cookie of document.cookie.split(';')) {
    const n = cookie.split('=')[0]?.trim() ?? '';
    if (!name.test(n)) continue;
    // Set on the site's registrable domain by default: every parent of the host is tried.
    // (The Cookie Store API would do, but Firefox and Safari lack it.)
    for (let i = 0; i <= host.length; i++) {
      const domain = i < host.length ? `; domain=${host.slice(i).join('.')}` : '';
      // biome-ignore lint/suspicious/noDocumentCookie: see above
      document.cookie = `${n}=; Max-Age=0; path=/${domain}`;
    }
  }
}

/**
 * A choice applied: the tag on with its purposes' signals, or switched off for this page by
 * Google's own opt-out (window['ga-disable-<id>']) when both are refused; a refused purpose's
 * cookies removed (Analytics: _ga; Advertising: _gcl_), and with them, for Advertising, the ad
 * click the browser kept. CallRail's script, when the site uses it, runs with Advertising only.
 */
function apply(c: Choice, fresh: boolean): void {
  choice = c;
  keepFirstTouch(c.ads);
  if (c.analytics || c.ads) start(fresh);
  else if (on) {
    on = false;
    w[`ga-disable-${id}`] = true;
    gtag('consent', 'update', signals(c));
  }
  if (!c.analytics) removeCookies(/^_ga(_|$)/);
  if (!c.ads) removeCookies(/^_gcl_/);
  const callrail = document.documentElement.dataset.callrail;
  if (c.ads && callrail && !document.querySelector(`script[src="${callrail}"]`)) {
    const s = document.createElement('script');
    s.async = true;
    s.src = callrail;
    document.head.appendChild(s);
  }
}

/**
 * Sends an event when the visitor has accepted; `then` runs once it is sent (or after 1.5 s, or
 * at once without consent), for an event followed by leaving the page.
 */
export function track(name: string, params: Record<string, unknown>, then?: () => void): void {
  if (!on) return void then?.();
  let done = false;
  const finish = () => {
    if (done) return;
    done = true;
    then?.();
  };
  gtag('event', name, then ? { ...params, event_callback: finish, event_timeout: 1500 } : params);
  if (then) setTimeout(finish, 1500);
}

/**
 * Enhanced conversions for leads: the visitor's e-mail and phone given to the tag before the
 * lead's event, as Google asks them (the e-mail trimmed and in lower case, the phone in E.164),
 * and only with Advertising accepted (ad_user_data granted).
 */
export function setUserData(email: string, phone: string): void {
  if (!on || !choice.ads) return;
  const digits = (phone.split(/x|ext|poste/i)[0] ?? '').replace(/\D/g, '');
  const e164 = /^1?(\d{10})$/.exec(digits)?.[1];
  gtag('set', 'user_data', {
    email: email.trim().toLowerCase(),
    ...(e164 ? { phone_number: `+1${e164}` } : {}),
  });
}

/**
 * GA4 when a measurement id is configured (the build puts it on <html data-ga>) and the visitor
 * accepts a purpose: each page sends page_view with page_path, and a tap on a phone number
 * click_to_call with the number tapped. No id, no consent: no request to Google, and no ad click
 * kept.
 */
export function initAnalytics(doc: Document): void {
  id = doc.documentElement.dataset.ga ?? '';
  if (!id) return;
  initConsent(doc, (c) => apply(c, true));
  const stored = storedChoice();
  if (stored) apply(stored, false);
  doc.addEventListener('click', (e) => {
    const a = (e.target as Element).closest?.('a[href^="tel:"]');
    const href = a?.getAttribute('href');
    if (href) track('click_to_call', { link_url: href, phone_line: href.slice(4).split(';')[0] });
  });
}
