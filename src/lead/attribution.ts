/**
 * Where a lead came from: the touch that brought the visitor (campaign parameters, ad click ids,
 * the referring site, the landing page), by the same rules in the browser script, which keeps
 * only values that pass them, and at the lead endpoint, which refuses a lead that breaks them.
 * No zod here: the browser script imports it.
 */

export const UTM_FIELDS = [
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
] as const;

/** Google Ads (gclid; gbraid and wbraid on iOS), Meta (fbclid), Microsoft Advertising (msclkid). */
export const CLICK_IDS = ['gclid', 'gbraid', 'wbraid', 'fbclid', 'msclkid'] as const;

/** Every field of a touch: each is also the name of the CRM custom field that carries it. */
export const TOUCH_FIELDS = [...UTM_FIELDS, ...CLICK_IDS, 'referrer', 'landing_page'] as const;
export type TouchField = (typeof TOUCH_FIELDS)[number];

/** A touch: the fields found (none may be empty) and when it happened (ISO). */
export type Touch = Partial<Record<TouchField | 'at', string>>;

/** One line of text: campaign names are the advertiser's own words, in any language. */
const ONE_LINE = /^[^\p{Cc}\u2028\u2029]+$/u;

/** Each field's limit and pattern: what the browser keeps and the endpoint accepts. */
export const TOUCH_RULES: Record<TouchField | 'at', { max: number; pattern: RegExp }> = {
  utm_source: { max: 150, pattern: ONE_LINE },
  utm_medium: { max: 150, pattern: ONE_LINE },
  utm_campaign: { max: 150, pattern: ONE_LINE },
  utm_term: { max: 150, pattern: ONE_LINE },
  utm_content: { max: 150, pattern: ONE_LINE },
  // Click ids are URL-safe tokens (base64url-like); anything else is not one.
  gclid: { max: 500, pattern: /^[\w.~-]+$/ },
  gbraid: { max: 500, pattern: /^[\w.~-]+$/ },
  wbraid: { max: 500, pattern: /^[\w.~-]+$/ },
  fbclid: { max: 500, pattern: /^[\w.~-]+$/ },
  msclkid: { max: 500, pattern: /^[\w.~-]+$/ },
  // The referring site's origin only: its path and query may name the visitor.
  referrer: { max: 200, pattern: /^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/ },
  // The path the visit landed on, without its query (the fields above are what it held).
  landing_page: { max: 300, pattern: /^\/[^\s\p{Cc}]*$/u },
  at: { max: 30, pattern: /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z$/ },
};

export const touchValueOk = (field: TouchField | 'at', value: string) =>
  value.length > 0 &&
  value.length <= TOUCH_RULES[field].max &&
  TOUCH_RULES[field].pattern.test(value);

/** Search engines a visit without campaign parameters came from, by the referrer's host. */
const SEARCH = /(?:^|\.)(google|bing|duckduckgo|yahoo|ecosia|qwant)\.[a-z.]+$/;

/**
 * Where a touch came from, as source, medium and campaign: its campaign parameters; from an ad
 * click id alone, the ad network; from a referring site, that site; "direct" / "(none)" when the
 * visit named none (typed in, a bookmark, an app).
 */
export function channelOf(touch: Touch | undefined): {
  source: string;
  medium: string;
  campaign?: string;
} {
  const t = touch ?? {};
  if (t.utm_source || t.utm_medium || t.utm_campaign)
    return {
      source: t.utm_source ?? '(not set)',
      medium: t.utm_medium ?? '(not set)',
      ...(t.utm_campaign ? { campaign: t.utm_campaign } : {}),
    };
  if (t.gclid || t.gbraid || t.wbraid) return { source: 'google', medium: 'cpc' };
  if (t.msclkid) return { source: 'bing', medium: 'cpc' };
  if (t.fbclid) return { source: 'facebook', medium: 'social' };
  if (t.referrer) {
    const host = t.referrer.replace(/^https?:\/\//, '').replace(/:\d+$/, '');
    const engine = SEARCH.exec(host)?.[1];
    return engine
      ? { source: engine, medium: 'organic' }
      : { source: host.replace(/^www\./, ''), medium: 'referral' };
  }
  return { source: 'direct', medium: '(none)' };
}

/**
 * The lead's source as people read it: "google / cpc / spring-flood" (source, medium,
 * campaign), "google / cpc", "example.com / referral", or "direct".
 */
export function sourceOf(touch: Touch | undefined): string {
  const c = channelOf(touch);
  const text =
    c.source === 'direct' ? 'direct' : [c.source, c.medium, c.campaign].filter(Boolean).join(' / ');
  return text.slice(0, 300);
}
