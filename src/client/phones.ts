import type { Touch } from '../lead/attribution.js';

/** A tracking number's rule, as the build writes it (src/site/tracking.ts). */
interface Rule {
  s?: string;
  d?: string;
  c?: string;
  k?: keyof Touch;
  t: string;
  n: string;
}

/**
 * Calls attributed first-party: the first rule of <html data-phones> the visit's touch matches
 * (its utm source, medium and campaign, without case; or an ad click id it carries) puts its
 * number in every call link and every number shown where the page shows the main one (the
 * `.nowrap` spans every number in text is in, labels that name it, the form's failure message).
 * Without JavaScript, or without a rule, the page keeps the main number.
 */
export function initPhones(doc: Document, touch: Touch | undefined): void {
  const config = doc.documentElement.dataset.phones;
  if (!config) return;
  const { m, p, r } = JSON.parse(config) as { m: string; p: string; r: Rule[] };
  const t = touch ?? {};
  const is = (want: string | undefined, v: string | undefined) =>
    !want || want === v?.toLowerCase();
  const rule = r.find(
    (x) =>
      is(x.s, t.utm_source) && is(x.d, t.utm_medium) && is(x.c, t.utm_campaign) && (!x.k || t[x.k]),
  );
  if (!rule) return;
  // The main number, in whatever form a text or link writes it: its ten digits, after a 1.
  const main = (text: string) =>
    text
      .replace(/\D/g, '')
      .replace(/^1(?=\d{10})/, '')
      .startsWith(m);
  for (const a of doc.querySelectorAll<HTMLAnchorElement>('a[href^="tel:"]'))
    if (main(a.getAttribute('href')?.split(';')[0] ?? '')) a.href = rule.t;
  for (const s of doc.querySelectorAll('.nowrap'))
    if (main(s.textContent ?? '')) s.textContent = rule.n;
  for (const el of doc.querySelectorAll('[aria-label],[data-phone]'))
    for (const name of ['aria-label', 'data-phone']) {
      const v = el.getAttribute(name);
      if (v?.includes(p)) el.setAttribute(name, v.split(p).join(rule.n));
    }
}
