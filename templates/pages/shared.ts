import { fill } from '../../src/i18n/catalogue.js';
import { memoizeRecent } from '../../src/memo.js';
import type { PageContext } from '../../src/render/context.js';
import { breadcrumbs, businessFor, faqPage, service } from '../../src/render/structured-data.js';
import type { QA } from '../../src/site/content-schema.js';
import type { City } from '../../src/site/model.js';
import type { Crumb } from '../components/Breadcrumbs.js';
import { isQuebec } from './quebec.js';

/** The city a page is about; site pages speak for the whole country. */
export const cityOf = (ctx: PageContext): City => ctx.page.city ?? ctx.site.national;

/** Home > City > this page, for city pages; Home > this page otherwise. */
export function trail(ctx: PageContext, current: string): Crumb[] {
  const { page, site } = ctx;
  const { paths } = site;
  const crumb = (name: string, path: string) => ({ name, path, href: site.links.href(path) });
  const crumbs: Crumb[] = [crumb(site.t.layout.home, paths.home)];
  const city = page.city;
  if (city && page.path !== paths.city(city)) crumbs.push(crumb(city.name, paths.city(city)));
  crumbs.push(crumb(current, page.path));
  return crumbs;
}

/** The city FAQ (four items), naming `place`. */
export function placeFaq(ctx: PageContext, place: string): QA[] {
  const quebec = isQuebec(ctx.page.city);
  return ctx.site.content.cityFaq.map((q) => ({
    question: fill(q.question, { city: place }),
    // An answer quoting the rest of Canada's fee has its Québec answer (the loader checks).
    answer: fill((quebec && q.quebecAnswer) || q.answer, { city: place }),
  }));
}

/**
 * A city's own FAQ, the same on its five landing pages: made once, so its JSON-LD is serialised
 * once too. An area's FAQ is on its page alone, so it is made there and not kept for the build.
 */
export function cityFaq(ctx: PageContext): readonly QA[] {
  return cityFaqOf(cityOf(ctx))(ctx);
}

/** Kept for the last cities only: a build makes a city's pages together (see memoizeRecent). */
const cityFaqOf = memoizeRecent((city: City) => {
  let faqs: readonly QA[] | null = null;
  return (ctx: PageContext) => {
    faqs ??= placeFaq(ctx, city.name);
    return faqs;
  };
});

/** JSON-LD of a page offering public adjusting in one place: business, trail, service, FAQ. */
export function localServiceJsonLd(
  ctx: PageContext,
  city: City,
  crumbs: Crumb[],
  faqs: readonly QA[],
) {
  const { site, page } = ctx;
  return [
    // A province's page under canada/ is in Québec when its area is: by slug, in any language.
    businessFor(site, isQuebec(city) || (city.national && page.area?.slug === 'quebec')),
    breadcrumbs(site, crumbs),
    service(site, page, city, site.t.pages.serviceName),
    ...(faqs.length > 0 ? [faqPage(faqs)] : []),
  ];
}
