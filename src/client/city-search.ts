import { type LookupCity, lookupPlace } from '../site/lookup.js';
import { NATIONAL } from '../site/segments.js';

let loaded: Promise<LookupCity[]> | undefined;

/** The city index (slug, population, has French pages, areas), fetched once per page; empty if it fails. */
export function loadCityIndex(url: string): Promise<LookupCity[]> {
  loaded ??= fetch(url)
    .then((res) =>
      res.ok ? (res.json() as Promise<Array<[string, number, 0 | 1, string[]?]>>) : [],
    )
    .then((rows) =>
      rows.map(([slug, population, fr, areas]) => ({
        slug,
        population,
        fr: fr === 1,
        areaSlugs: areas,
      })),
    )
    .catch(() => []);
  return loaded;
}

/** A city's page, or one of its areas', in the page's language where it has one, else in English. */
function cityPath(city: LookupCity, basePath: string, french: boolean, area = ''): string {
  const fr = french && (city.fr || city.slug === NATIONAL);
  return `${basePath}${fr ? '/fr' : ''}/${city.slug}/${area && `${area}/`}`;
}

/**
 * The city search form: the typed name looked up as a city (as the not-found page does) or a
 * neighbourhood, the visitor sent to its page, or told that nothing matches. Without the index the form goes where it
 * goes without the script: the list of every city.
 */
export function initCitySearch(form: HTMLFormElement, doc: Document): void {
  const url = form.dataset.cityIndex;
  const input = form.querySelector('input');
  const none = form.querySelector<HTMLElement>('[data-city-search-none]');
  if (!url || !input) return;
  input.addEventListener('focus', () => void loadCityIndex(url), { once: true });
  input.addEventListener('input', () => {
    if (none) none.hidden = true;
  });
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    const cities = await loadCityIndex(url);
    if (cities.length === 0) return form.submit();
    const found = lookupPlace(input.value, cities);
    if (found) {
      const french = doc.documentElement.lang.startsWith('fr');
      location.assign(cityPath(found.city, form.dataset.basePath ?? '', french, found.area));
    } else if (none) none.hidden = false;
  });
}
