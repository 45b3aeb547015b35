import { memoize } from '../../src/memo.js';
import type { PageContext } from '../../src/render/context.js';
import { breadcrumbs, business, faqPage, service } from '../../src/render/structured-data.js';
import type { QA } from '../../src/site/content-schema.js';
import type { City } from '../../src/site/model.js';
import type { Crumb } from '../components/Breadcrumbs.js';

/** The city a page is about; site pages speak for the whole country. */
export const cityOf = (ctx: PageContext): City => ctx.page.city ?? ctx.site.national;

/** Fills the {city} placeholder of shared content. */
export const fill = (text: string, place: string) => text.replaceAll('{city}', place);

/** Home > City > this page, for city pages; Home > this page otherwise. */
export function trail(ctx: PageContext, current: string): Crumb[] {
  const { page } = ctx;
  const crumbs: Crumb[] = [{ name: 'Home', path: '/' }];
  const city = page.city;
  if (city && page.path !== `/${city.slug}`)
    crumbs.push({ name: city.name, path: `/${city.slug}` });
  crumbs.push({ name: current, path: page.path });
  return crumbs;
}

/** The city FAQ (SPEC §3: four items) for a place: one list per place, shared by its pages. */
export function cityFaq(ctx: PageContext, place: string): readonly QA[] {
  const byPlace = cityFaqsOf(ctx.site);
  let faqs = byPlace.get(place);
  if (!faqs) {
    faqs = ctx.site.content.cityFaq.map((q) => ({
      question: fill(q.question, place),
      answer: fill(q.answer, place),
    }));
    byPlace.set(place, faqs);
  }
  return faqs;
}

const cityFaqsOf = memoize((_: PageContext['site']) => new Map<string, readonly QA[]>());

/** JSON-LD of a page offering public adjusting in one place: business, trail, service, FAQ. */
export function localServiceJsonLd(
  ctx: PageContext,
  city: City,
  crumbs: Crumb[],
  faqs: readonly QA[],
) {
  const { site, page } = ctx;
  return [
    business(site),
    breadcrumbs(site, crumbs),
    service(site, page, city, 'Public adjusting'),
    faqPage(faqs),
  ];
}
