import { Fragment } from 'react';
import { fill, fillParts, type Strings } from '../../src/i18n/catalogue.js';
import type {
  Body,
  Catastrophe,
  LicenceLookup as Lookup,
  ProvinceFacts,
} from '../../src/site/facts-schema.js';
import type { Formats } from '../../src/site/format.js';
import type { City } from '../../src/site/model.js';
import type { Source } from '../../src/site/schema.js';
import type { Links } from '../../src/urls.js';
import { Section } from './Section.js';

/**
 * "Source: publisher", linking to the page that says it: every fact on a page can be checked;
 * "as of 2024" after it where the fact tells what can stop being true (fact-dates.ts).
 */
export function Cite({ source, asOf, t }: { source: Source; asOf?: string; t: Strings }) {
  return <Cites sources={[source]} asOf={asOf} t={t} />;
}

/** Several sources of one text, in one parenthesis, with its year; nothing for none. */
export function Cites({
  sources,
  asOf,
  t,
}: {
  sources: readonly Source[];
  /** The year the text tells of, said after its sources. */
  asOf?: string;
  t: Strings;
}) {
  if (sources.length === 0) return null;
  const list = sources.map((s, i) => (
    <Fragment key={s.url}>
      {i > 0 && t.localFacts.sourceSeparator}
      <a href={s.url} rel="noopener">
        {s.publisher}
      </a>
    </Fragment>
  ));
  return (
    <span className="source">
      {' '}
      {fillParts(sources.length === 1 ? t.localFacts.source : t.localFacts.sources, {
        sources: (
          <Fragment key="sources">
            {list}
            {asOf && fill(t.localFacts.asOf, { year: asOf })}
          </Fragment>
        ),
      })}
    </span>
  );
}

/** "population 2,794,356 (2021 Census)", the census linked when the data names it. */
/** Where a homeowner can check an adjuster's licence, on the province's and its cities' pages. */
export function LicenceLookup({ lookup, t }: { lookup: Lookup; t: Strings }) {
  return (
    <p>
      {fillParts(t.localFacts.licenceLookup, {
        link: (
          <a key="link" href={lookup.url}>
            {t.localFacts.licenceLookupLink}
          </a>
        ),
        text: lookup.text,
      })}
      <Cite source={lookup.source} t={t} />
    </p>
  );
}

export function Population({
  city,
  source,
  t,
  format,
}: {
  city: City;
  source: Source | null;
  t: Strings;
  format: Formats;
}) {
  return (
    <p className="muted">
      {fillParts(t.localFacts.population, {
        city: city.name,
        province: city.province ?? '',
        population: format.whole(city.population),
        census: source ? (
          <a key="census" href={source.url}>
            {t.localFacts.census}
          </a>
        ) : (
          t.localFacts.census
        ),
      })}
    </p>
  );
}

function BodyItem({ body, t }: { body: Body; t: Strings }) {
  return (
    <li>
      {fillParts(t.localFacts.body, {
        name: (
          <strong key="name">{body.url ? <a href={body.url}>{body.name}</a> : body.name}</strong>
        ),
        text: body.text,
      })}
      <Cite source={body.source} t={t} />
    </li>
  );
}

/**
 * Who licenses adjusters in a province or territory, what its regulator says a policyholder
 * should know, and where a stalled or disputed claim can go: the same for each of its cities.
 */
export function ProvinceRules({
  province,
  facts,
  national,
  t,
}: {
  province: string;
  facts: ProvinceFacts;
  national: readonly Body[];
  t: Strings;
}) {
  return (
    <>
      <div className="prose">
        <h3>{fill(t.localFacts.regulatorTitle, { province })}</h3>
        <p>
          {facts.regulator.url ? (
            <a href={facts.regulator.url}>{facts.regulator.name}</a>
          ) : (
            facts.regulator.name
          )}
          . {facts.regulator.text}
          <Cite source={facts.regulator.source} t={t} />
        </p>
        {facts.regulator.lookup && <LicenceLookup lookup={facts.regulator.lookup} t={t} />}
        {facts.facts.map((f) => (
          <p key={f.text}>
            {f.text}
            <Cite source={f.source} t={t} />
          </p>
        ))}
        <h3>{t.localFacts.complaintsTitle}</h3>
        <p>{t.localFacts.complaintsIntro}</p>
      </div>
      <ul className="bullet-list fact-list">
        {facts.complaints.map((b) => (
          <BodyItem key={b.name} body={b} t={t} />
        ))}
        {national.map((b) => (
          <BodyItem key={b.name} body={b} t={t} />
        ))}
      </ul>
    </>
  );
}

/** The insured catastrophes that struck a place, as a section of its page; nothing for none. */
export function CatastropheSection({
  place,
  catastrophes,
  cities,
  t,
  links,
}: {
  place: string;
  catastrophes: readonly Catastrophe[];
  cities?: ReadonlyMap<string, City>;
  t: Strings;
  links: Links;
}) {
  if (catastrophes.length === 0) return null;
  return (
    <Section id="catastrophes-title" title={fill(t.localFacts.catastrophesTitle, { place })}>
      <p className="section-intro">{fill(t.localFacts.catastrophesIntro, { place })}</p>
      <CatastropheList catastrophes={catastrophes} cities={cities} t={t} links={links} />
    </Section>
  );
}

/** Insured catastrophes, newest first, with the insured damage as published. */
function CatastropheList({
  catastrophes,
  cities,
  t,
  links,
}: {
  catastrophes: readonly Catastrophe[];
  /** The data set's cities by slug, to link the places each struck. */
  cities?: ReadonlyMap<string, City>;
  t: Strings;
  links: Links;
}) {
  return (
    <ul className="bullet-list fact-list">
      {catastrophes.map((c) => {
        const struck = cities
          ? c.cities.flatMap((slug) => {
              const city = cities.get(slug);
              return city ? [city] : [];
            })
          : [];
        return (
          <li key={`${c.year} ${c.name}`}>
            {fillParts(t.localFacts.catastrophe, {
              event: (
                <strong key="event">
                  {fill(t.localFacts.catastropheEvent, { year: c.year, name: c.name })}
                </strong>
              ),
              damage: c.insuredDamage,
              estimate: c.estimate,
            })}
            {struck.length > 0 && (
              <>
                {' '}
                {fillParts(t.localFacts.struck, {
                  cities: (
                    <Fragment key="cities">
                      {struck.map((city, i) => (
                        <span key={city.slug}>
                          {i > 0 &&
                            (i === struck.length - 1
                              ? t.localFacts.listLastSeparator
                              : t.localFacts.listSeparator)}
                          <a href={links.city(city)}>{city.name}</a>
                        </span>
                      ))}
                    </Fragment>
                  ),
                })}
              </>
            )}
            <Cite source={c.source} t={t} />
          </li>
        );
      })}
    </ul>
  );
}
