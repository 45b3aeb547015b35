import { fill } from '../i18n/catalogue.js';
import type { Page } from '../routes.js';
import type { Site } from '../site/model.js';

/**
 * What a share image says (the picture a link shows when it is shared): the brand, and the
 * city's or the site page's name. Every page of a city shares its city's card; a province's
 * page has its own; the site's pages each have theirs.
 */
export interface ShareCard {
  /** Names the image's file (`city-toronto`): one card, one file. */
  id: string;
  /** A short line above the title, or none. */
  kicker: string | null;
  title: string;
  /** A line under the title (the city's province), or none. */
  detail: string | null;
}

/** The line every card ends with: the header's button and the number to call. */
export const cardFooter = (site: Site) =>
  fill(site.t.share.footer, { phone: site.format.phone(site.phone) });

/**
 * The card a page shows when it is shared, in its language (`site` is the site in it); a
 * translation's cards are files of their own.
 */
export function cardFor(page: Page, site: Site): ShareCard {
  const card = englishOrLocal(page, site.t, site.area !== null);
  return page.lang === 'en' ? card : { ...card, id: `${page.lang}-${card.id}` };
}

function englishOrLocal(
  page: Page,
  { share: t, routes }: Site['t'],
  serviceArea: boolean,
): ShareCard {
  const { city, area } = page;
  if (city && !city.national)
    return {
      id: `city-${city.slug}`,
      kicker: t.kickerIn,
      title: city.name,
      detail: city.province,
    };
  // A province's page is an area of the national entry.
  if (city && area)
    return {
      id: `province-${area.slug}`,
      kicker: t.kickerIn,
      title: area.name,
      detail: null,
    };
  // The national pages speak of the country, or of the service area as the home page does.
  if (city)
    return serviceArea
      ? { id: `city-${city.slug}`, kicker: null, title: routes.homeHeadline, detail: null }
      : { id: `city-${city.slug}`, kicker: t.kickerAcross, title: t.country, detail: null };
  if (page.post)
    return { id: `post-${page.post.slug}`, kicker: t.blog, title: page.post.title, detail: null };
  // Pages that are not shared (the confirmation, the form's error, not found) show the home page's.
  if (page.route === 'home' || page.sitemap === null)
    return { id: 'page-home', kicker: null, title: routes.homeHeadline, detail: null };
  return { id: `page-${page.route}`, kicker: null, title: page.title, detail: null };
}

/** What the image shows, as words: its `og:image:alt`. */
export function cardAlt(card: ShareCard, site: Site): string {
  const heading = [card.kicker, card.title].filter(Boolean).join(' ');
  return [
    site.settings.siteName,
    card.detail ? `${heading}, ${card.detail}` : heading,
    cardFooter(site),
  ].join('. ');
}
