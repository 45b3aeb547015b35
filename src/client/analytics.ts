import { keepFirstTouch } from './attribution.js';
import { type Choice, initConsent, storedChoice } from './consent.js';

type Gtag = (...args: unknown[]) => void;
const w = window as unknown as { dataLayer?: unknown[]; gtag?: Gtag } & Record<string, unknown>;

let id = '';
let on = false;
let loaded = false;

// gtag.js reads the arguments object itself, so it is pushed as it is.
const gtag: Gtag = function gtag() {
  // biome-ignore lint/complexity/noArguments: the tag's documented contract
  w.dataLayer?.push(arguments);
};

/** Consent Mode v2: everything denied until the visitor accepts; never personalised ads. */
const DENIED = {
  ad_storage: 'denied',
  ad_user_data: 'denied',
  ad_personalization: 'denied',
  analytics_storage: 'denied',
};
const GRANTED = { ad_storage: 'granted', ad_user_data: 'granted', analytics_storage: 'granted' };

/** The GA4 tag, loaded on acceptance only (basic consent mode: nothing before). */
function start(): void {
  if (on) return;
  on = true;
  w[`ga-disable-${id}`] = false;
  if (loaded) return void gtag('consent', 'update', GRANTED);
  loaded = true;
  w.dataLayer = w.dataLayer || [];
  w.gtag = gtag;
  gtag('consent', 'default', DENIED);
  gtag('consent', 'update', GRANTED);
  gtag('js', new Date());
  gtag('config', id, { send_page_view: false });
  gtag('event', 'page_view', {
    page_path: location.pathname + location.search,
    page_location: location.href,
  });
  const s = document.createElement('script');
  s.async = true;
  s.src = `https://www.googletagmanager.com/gtag/js?id=${encodeURIComponent(id)}`;
  document.head.appendChild(s);
}

/**
 * A refusal, or consent taken back: the tag is switched off for this page by Google's own
 * opt-out (window['ga-disable-<id>']), consent is denied, and its cookies on this site removed.
 */
function stop(): void {
  on = false;
  w[`ga-disable-${id}`] = true;
  if (loaded) gtag('consent', 'update', DENIED);
  const host = location.hostname.split('.');
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim() ?? '';
    if (!/^_ga(_|$)/.test(name)) continue;
    // Set on the site's registrable domain by default: every parent of the host is tried.
    // (The Cookie Store API would do, but Firefox and Safari lack it.)
    for (let i = 0; i <= host.length; i++) {
      const domain = i < host.length ? `; domain=${host.slice(i).join('.')}` : '';
      // biome-ignore lint/suspicious/noDocumentCookie: see above
      document.cookie = `${name}=; Max-Age=0; path=/${domain}`;
    }
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
 * GA4 when a measurement id is configured (the build puts it on <html data-ga>) and the visitor
 * accepts: each page sends page_view with page_path, and a tap on a phone number click_to_call.
 * No id, no consent: no request to Google, and no first touch kept.
 */
export function initAnalytics(doc: Document): void {
  id = doc.documentElement.dataset.ga ?? '';
  if (!id) return;
  const choose = (choice: Choice) => {
    keepFirstTouch(choice === 'granted');
    if (choice === 'granted') start();
    else stop();
  };
  initConsent(doc, choose);
  const stored = storedChoice();
  if (stored) choose(stored);
  doc.addEventListener('click', (e) => {
    const a = (e.target as Element).closest?.('a[href^="tel:"]');
    if (a) track('click_to_call', { link_url: a.getAttribute('href') });
  });
}
