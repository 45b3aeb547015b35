import { fill, type Strings } from '../../src/i18n/catalogue.js';
import type { City } from '../../src/site/model.js';
import type { Links } from '../../src/urls.js';

/**
 * The city search: the spec's city lookup, forgiving a letter or two, applied in the browser
 * (src/client/city-search.ts). Without the script the form opens the list of every city.
 */
export function CitySearch({
  id,
  cityIndex,
  basePath,
  names = [],
  compact = false,
  t,
  links,
}: {
  /** Unique on the page: names the field and its hint. */
  id: string;
  /** The menu's: its words inside the field on a wide screen, where the menu is one row. */
  compact?: boolean;
  /** The city index's path (assets.cityIndex), as the not-found page loads it. */
  cityIndex: string;
  basePath: string;
  /** Offered as the visitor types, where the page lists them. */
  names?: readonly string[];
  t: Strings;
  links: Links;
}) {
  const h = t.home;
  return (
    <search className={compact ? 'nav-finder' : undefined}>
      <form
        className="city-search"
        action={links.page('sitemap')}
        data-city-search=""
        data-city-index={links.href(cityIndex)}
        data-base-path={basePath || undefined}
      >
        <label htmlFor={id}>{h.searchLabel}</label>
        <div className="city-search-row">
          <input
            id={id}
            type="search"
            name="city"
            autoComplete="off"
            enterKeyHint="go"
            placeholder={compact ? h.searchLabel : undefined}
            aria-describedby={`${id}-hint`}
            list={names.length > 0 ? `${id}-names` : undefined}
            required
          />
          <button type="submit" className="button button-primary">
            {h.searchButton}
          </button>
        </div>
        {names.length > 0 && (
          <datalist id={`${id}-names`}>
            {names.map((n) => (
              <option key={n} value={n} />
            ))}
          </datalist>
        )}
        <p id={`${id}-hint`} className="city-search-hint" data-city-search-hint="">
          {h.searchHint}
        </p>
        <p className="city-search-none" role="alert" data-city-search-none="" hidden>
          {h.searchNone}
        </p>
      </form>
    </search>
  );
}

/**
 * The home page's way to a city: the search, the largest cities with their four pages in a
 * compact list, and the province and territory pages (which list every city).
 */
export function CityFinder({
  title,
  cities,
  provinces,
  cityIndex,
  basePath,
  names,
  t,
  links,
}: {
  /** The heading: the country's largest cities, or the cities of a service area. */
  title: string;
  cities: readonly City[];
  /** The national entry: its areas are the provinces and territories. */
  provinces: City;
  cityIndex: string;
  basePath: string;
  names: readonly string[];
  t: Strings;
  links: Links;
}) {
  const h = t.home;
  return (
    <section className="section city-finder" aria-labelledby="cities-title">
      <div className="container">
        <h2 id="cities-title">{title}</h2>
        <p className="section-intro">{h.citiesIntro}</p>
        <CitySearch
          id="city-search"
          cityIndex={cityIndex}
          basePath={basePath}
          names={names}
          t={t}
          links={links}
        />
        <ul className="city-finder-grid">
          {cities.map((c) => (
            <CityPages key={c.slug} city={c} t={t} links={links} />
          ))}
        </ul>
        {provinces.areas.length > 0 && (
          <>
            <h3 className="city-finder-provinces">{h.provincesTitle}</h3>
            <ul className="chips">
              {provinces.areas.map((a) => (
                <li key={a.slug}>
                  <a className="chip" href={links.cityPage(provinces, a)}>
                    {a.name}
                  </a>
                </li>
              ))}
            </ul>
          </>
        )}
        <p className="more-link">
          <a href={links.page('sitemap')}>{h.allCities}</a>
        </p>
      </div>
    </section>
  );
}

/** One of the largest cities: its name, and its four pages in a compact list. */
function CityPages({ city, t, links }: { city: City; t: Strings; links: Links }) {
  const h = t.home;
  const s = t.htmlSitemap;
  return (
    <li>
      <h3>
        <a href={links.city(city)}>{city.name}</a>
      </h3>
      <ul aria-label={fill(h.pagesOf, { city: city.name })}>
        <li>
          <a
            href={links.cityPage(city, 'public-adjusters')}
            aria-label={fill(h.findAdjustersIn, { city: city.name })}
          >
            {s.findAdjusters}
          </a>
        </li>
        <li>
          <a
            href={links.cityPage(city, 'top-adjusters')}
            aria-label={fill(h.topAdjustersIn, { city: city.name })}
          >
            {s.topAdjusters}
          </a>
        </li>
        <li>
          <a
            href={links.cityPage(city, 'claims-offices')}
            aria-label={fill(h.claimsOfficesIn, { city: city.name })}
          >
            {s.claimsOffices}
          </a>
        </li>
        <li>
          <a
            href={links.cityPage(city, 'free-consultation')}
            aria-label={fill(h.freeConsultationIn, { city: city.name })}
          >
            {s.freeConsultation}
          </a>
        </li>
      </ul>
    </li>
  );
}
