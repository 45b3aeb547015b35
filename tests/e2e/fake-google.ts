import type { BrowserContext } from 'playwright-core';

/**
 * A stand-in for Google's gtag.js, served in the browser in place of the real one (no test may
 * reach Google). It keeps what the page relies on: it runs the commands queued in `dataLayer`
 * before it loaded and those pushed after; `config` names the measurement id; each `event` is
 * sent as GA4 sends it, a request to `https://region1.google-analytics.com/g/collect` with
 * `v=2`, `tid`, `cid`, `en` (the event's name), `dl` and each parameter as `ep.<name>` (text) or
 * `epn.<name>` (number), `dl` being the event's `page_location` when it names one (as a replayed
 * landing does); `event_callback` runs once it is sent. Like the real tag, it stops only
 * for Google's opt-out, `window['ga-disable-<id>']`, and not for denied consent (Consent Mode's
 * advanced pings still leave, marked in `gcs`): a page that relied on denied consent to stop the
 * tag would be caught. It sends enhanced measurement's `scroll` of itself, as the real tag does,
 * and sets `_ga` as the real tag does with analytics storage granted. With ad storage granted it
 * does what the real tag's advertising measurement does: sets `_gcl_au` and sends each event to
 * DoubleClick too (`stats.g.doubleclick.net/g/collect`, Google signals); user data set with
 * `gtag('set', 'user_data', ...)` goes with the events (as `em`) only with ad_user_data granted.
 */
export const FAKE_GTAG = `(() => {
  const dl = (window.dataLayer = window.dataLayer || []);
  let id = '';
  const consent = {};
  let userData = null;
  const cid = String(Math.random()).slice(2, 12) + '.' + Math.floor(Date.now() / 1000);
  const send = (en, params) => {
    if (!id || window['ga-disable-' + id]) return Promise.resolve();
    const granted = consent.analytics_storage === 'granted';
    const ads = consent.ad_storage === 'granted';
    if (granted) document.cookie = '_ga=GA1.1.' + cid + '; path=/; max-age=63072000';
    if (ads) document.cookie = '_gcl_au=1.1.' + cid + '; path=/; max-age=7776000';
    const dl = (params && params.page_location) || location.href;
    const q = new URLSearchParams({ v: '2', tid: id, cid, en, dl, gcs: 'G1' + (ads ? '1' : '0') + (granted ? '1' : '0') });
    if (userData && consent.ad_user_data === 'granted') q.set('em', btoa(JSON.stringify(userData)));
    for (const [k, v] of Object.entries(params || {})) {
      if (k === 'event_callback' || k === 'event_timeout' || typeof v === 'object') continue;
      q.set((typeof v === 'number' ? 'epn.' : 'ep.') + k, String(v));
    }
    if (ads) fetch('https://stats.g.doubleclick.net/g/collect?' + q, { method: 'POST', keepalive: true, mode: 'no-cors' }).catch(() => {});
    return fetch('https://region1.google-analytics.com/g/collect?' + q, { method: 'POST', keepalive: true, mode: 'no-cors' }).catch(() => {});
  };
  const run = (args) => {
    const [cmd, a, b] = Array.from(args);
    if (cmd === 'consent') Object.assign(consent, b);
    else if (cmd === 'set' && a === 'user_data') userData = b;
    else if (cmd === 'config') {
      id = a;
      if (!b || b.send_page_view !== false) send('page_view', {});
    } else if (cmd === 'event') {
      const done = b && typeof b.event_callback === 'function' ? b.event_callback : null;
      send(a, b).then(() => done && done());
    }
  };
  // Like the real tag with enhanced measurement on (GA4's default), it reports a scroll to 90% of
  // the page by itself: only Google's opt-out stops that.
  let scrolled = false;
  addEventListener('scroll', () => {
    const seen = (scrollY + innerHeight) / document.documentElement.scrollHeight;
    if (seen >= 0.9 && !scrolled) {
      scrolled = true;
      send('scroll', { percent_scrolled: 90 });
    }
  });
  for (const args of dl) run(args);
  const push = dl.push.bind(dl);
  dl.push = (...items) => {
    for (const args of items) run(args);
    return push(...items);
  };
})();`;

/** A GA4 event as the browser sent it. */
export interface Collected {
  en: string;
  tid: string;
  /** The page's address as sent (`dl`). */
  dl: string;
  /** Consent Mode's state as sent (`gcs`: G1, then ad storage, then analytics storage). */
  gcs: string;
  /** The user data sent for enhanced conversions, decoded; null when none went. */
  userData: Record<string, string> | null;
  params: Record<string, string>;
  at: number;
  /** Sent to DoubleClick (advertising measurement) rather than to GA4's collection. */
  ads: boolean;
}

/**
 * Intercepts every request for Google in a browser context: the tag is the fake above, each
 * collect request is recorded and answered 204. Every request the pages make, to any host, is
 * recorded too, so a test can say none left for Google when none should.
 */
export async function interceptGoogle(context: BrowserContext) {
  const events: Collected[] = [];
  /** What went to DoubleClick: only with advertising consent. */
  const adEvents: Collected[] = [];
  const requests: Array<{ url: string; at: number }> = [];
  context.on('request', (r) => requests.push({ url: r.url(), at: Date.now() }));
  await context.route(
    /^https:\/\/[^/]*(googletagmanager|google-analytics|doubleclick)\.(com|net)\//,
    (route) => {
      const url = new URL(route.request().url());
      if (url.pathname === '/gtag/js')
        return route.fulfill({ status: 200, contentType: 'text/javascript', body: FAKE_GTAG });
      if (url.pathname === '/g/collect') {
        const params: Record<string, string> = {};
        for (const [k, v] of url.searchParams) {
          const m = /^epn?\.(.+)$/.exec(k);
          if (m?.[1]) params[m[1]] = v;
        }
        const em = url.searchParams.get('em');
        const event: Collected = {
          en: url.searchParams.get('en') ?? '',
          tid: url.searchParams.get('tid') ?? '',
          dl: url.searchParams.get('dl') ?? '',
          gcs: url.searchParams.get('gcs') ?? '',
          userData: em ? JSON.parse(Buffer.from(em, 'base64').toString('utf8')) : null,
          params,
          at: Date.now(),
          ads: url.hostname.endsWith('doubleclick.net'),
        };
        (event.ads ? adEvents : events).push(event);
        return route.fulfill({ status: 204, body: '' });
      }
      return route.fulfill({ status: 404, body: '' });
    },
  );
  /** Requests that left for anywhere but the site on loopback (a tel: link is no request). */
  const outside = (since = 0) =>
    requests.filter(
      (r) =>
        r.at >= since &&
        /^https?:/.test(r.url) &&
        !/^http:\/\/(127\.0\.0\.1|localhost)[:/]/.test(r.url),
    );
  return { events, adEvents, requests, outside };
}
