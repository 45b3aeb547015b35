import {
  CLICK_IDS,
  TOUCH_FIELDS,
  type Touch,
  touchValueOk,
  UTM_FIELDS,
} from '../lead/attribution.js';
import { storedChoice } from './consent.js';

/** This visit's touch: kept for the browser tab's session only. */
const SESSION = 'claimsite-touch';
/** The first (paid) touch, kept 90 days, and only with the visitor's advertising consent. */
const FIRST = 'claimsite-first-touch';
const FIRST_KEPT_MS = 90 * 24 * 3600 * 1000;

type Kind = 'sessionStorage' | 'localStorage';

/** A stored touch, cleaned to what the endpoint takes (a value edited by hand refuses no lead). */
function read(kind: Kind, key: string): Touch | undefined {
  try {
    const t = JSON.parse(window[kind].getItem(key) ?? 'null') as Touch | null;
    if (!t || typeof t !== 'object') return undefined;
    const out: Touch = {};
    for (const f of [...TOUCH_FIELDS, 'at' as const]) {
      const v = t[f];
      if (typeof v === 'string' && touchValueOk(f, v)) out[f] = v;
    }
    return out;
  } catch {
    // Storage blocked or unreadable: the lead goes without it.
    return undefined;
  }
}

function write(kind: Kind, key: string, touch: Touch | null): void {
  try {
    if (touch) window[kind].setItem(key, JSON.stringify(touch));
    else window[kind].removeItem(key);
  } catch {
    // Storage blocked.
  }
}

const firstKept = () => {
  const first = read('localStorage', FIRST);
  return first && Date.now() - Date.parse(first.at ?? '') < FIRST_KEPT_MS ? first : undefined;
};

/**
 * Keeps the touch of a landing: the campaign parameters and ad click ids of the address, the
 * referring site's origin (another site only), the landing path. A page reached from within the
 * site keeps the session's touch; a new campaign or another referring site replaces it.
 */
export function captureTouch(loc: Location, referrer: string): void {
  const params = new URLSearchParams(loc.search);
  const touch: Touch = {};
  for (const f of [...UTM_FIELDS, ...CLICK_IDS]) {
    const v = params.get(f)?.trim();
    if (v && touchValueOk(f, v)) touch[f] = v;
  }
  try {
    const origin = new URL(referrer).origin;
    if (origin !== loc.origin && touchValueOk('referrer', origin)) touch.referrer = origin;
  } catch {
    // No referrer: a direct visit, or a page of this site.
  }
  if (Object.keys(touch).length === 0 && read('sessionStorage', SESSION)) return;
  if (touchValueOk('landing_page', loc.pathname)) touch.landing_page = loc.pathname;
  touch.at = new Date().toISOString();
  write('sessionStorage', SESSION, touch);
}

/** The visit's landing page_view has reached GA4 (sent on it, or replayed). */
const LANDING_SENT = 'claimsite-landing-sent';

const paid = (t: Touch | undefined) => CLICK_IDS.some((k) => t?.[k]);

/**
 * With advertising consent, the first paid click is kept: the session's touch becomes the kept
 * one when none is kept, or when the kept one was no ad click and this one is. Without consent,
 * none is kept.
 */
export function keepFirstTouch(granted: boolean): void {
  const session = read('sessionStorage', SESSION);
  if (!granted) write('localStorage', FIRST, null);
  else if (session && (!firstKept() || (!paid(firstKept()) && paid(session))))
    write('localStorage', FIRST, session);
}

/**
 * The address the visit landed on, with its campaign and click id, the first time the tag runs in
 * the visit and this page is not it: what GA4 is told of a landing made before consent was given.
 * Null on the landing page itself, and once told.
 */
export function landingUrl(loc: Location): string | null {
  const t = read('sessionStorage', SESSION);
  try {
    if (sessionStorage.getItem(LANDING_SENT)) return null;
    sessionStorage.setItem(LANDING_SENT, '1');
  } catch {
    return null;
  }
  if (!t?.landing_page || t.landing_page === loc.pathname) return null;
  const query = new URLSearchParams();
  for (const f of [...UTM_FIELDS, ...CLICK_IDS]) if (t[f]) query.set(f, t[f] as string);
  return `${loc.origin}${t.landing_page}${query.size ? `?${query}` : ''}`;
}

/** What a form sends of where the visitor came from. */
export const leadTouches = () => ({
  attribution: read('sessionStorage', SESSION),
  // Only while Advertising stands accepted (one kept under an older, single consent is not sent).
  firstTouch: storedChoice()?.ads ? firstKept() : undefined,
});
