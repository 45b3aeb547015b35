import { Fragment } from 'react';
import type {
  Body,
  Catastrophe,
  LicenceLookup as Lookup,
  ProvinceFacts,
} from '../../src/site/facts-schema.js';
import { formatWhole } from '../../src/site/format.js';
import type { City } from '../../src/site/model.js';
import type { Source } from '../../src/site/schema.js';
import { links } from '../../src/urls.js';
import { Section } from './Section.js';

/** "Source: publisher", linking to the page that says it: every fact on a page can be checked. */
export function Cite({ source }: { source: Source }) {
  return <Cites sources={[source]} />;
}

/** Several sources of one text, in one parenthesis; nothing for none. */
export function Cites({ sources }: { sources: readonly Source[] }) {
  if (sources.length === 0) return null;
  return (
    <span className="source">
      {' '}
      ({sources.length === 1 ? 'Source' : 'Sources'}:{' '}
      {sources.map((s, i) => (
        <Fragment key={s.url}>
          {i > 0 && '; '}
          <a href={s.url} rel="noopener">
            {s.publisher}
          </a>
        </Fragment>
      ))}
      )
    </span>
  );
}

/** "population 2,794,356 (2021 Census)", the census linked when the data names it. */
/** Where a homeowner can check an adjuster's licence, on the province's and its cities' pages. */
export function LicenceLookup({ lookup }: { lookup: Lookup }) {
  return (
    <p>
      <a href={lookup.url}>Check an adjuster's licence</a>: {lookup.text}
      <Cite source={lookup.source} />
    </p>
  );
}

export function Population({ city, source }: { city: City; source: Source | null }) {
  return (
    <p className="muted">
      {city.name}, {city.province}: population {formatWhole(city.population)} (
      {source ? <a href={source.url}>2021 Census</a> : '2021 Census'}).
    </p>
  );
}

function BodyItem({ body }: { body: Body }) {
  return (
    <li>
      <strong>{body.url ? <a href={body.url}>{body.name}</a> : body.name}</strong>: {body.text}
      <Cite source={body.source} />
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
}: {
  province: string;
  facts: ProvinceFacts;
  national: readonly Body[];
}) {
  return (
    <>
      <div className="prose">
        <h3>Who licenses claims adjusters in {province}</h3>
        <p>
          {facts.regulator.url ? (
            <a href={facts.regulator.url}>{facts.regulator.name}</a>
          ) : (
            facts.regulator.name
          )}
          . {facts.regulator.text}
          <Cite source={facts.regulator.source} />
        </p>
        {facts.regulator.lookup && <LicenceLookup lookup={facts.regulator.lookup} />}
        {facts.facts.map((f) => (
          <p key={f.text}>
            {f.text}
            <Cite source={f.source} />
          </p>
        ))}
        <h3>If your claim stalls or is denied</h3>
        <p>
          Ask your insurer for its complaint process and a final answer in writing first. Beyond
          that:
        </p>
      </div>
      <ul className="bullet-list fact-list">
        {facts.complaints.map((b) => (
          <BodyItem key={b.name} body={b} />
        ))}
        {national.map((b) => (
          <BodyItem key={b.name} body={b} />
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
}: {
  place: string;
  catastrophes: readonly Catastrophe[];
  cities?: ReadonlyMap<string, City>;
}) {
  if (catastrophes.length === 0) return null;
  return (
    <Section id="catastrophes-title" title={`Insured Catastrophes in ${place}`}>
      <p className="section-intro">
        Events that struck {place}, with the insured damage the Insurance Bureau of Canada or CatIQ
        published for each.
      </p>
      <CatastropheList catastrophes={catastrophes} cities={cities} />
    </Section>
  );
}

/** Insured catastrophes, newest first, with the insured damage as published. */
function CatastropheList({
  catastrophes,
  cities,
}: {
  catastrophes: readonly Catastrophe[];
  /** The data set's cities by slug, to link the places each struck. */
  cities?: ReadonlyMap<string, City>;
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
            <strong>
              {c.year}, {c.name}
            </strong>
            : {c.insuredDamage} in insured damage ({c.estimate}).
            {struck.length > 0 && (
              <>
                {' '}
                Struck{' '}
                {struck.map((city, i) => (
                  <span key={city.slug}>
                    {i > 0 && (i === struck.length - 1 ? ' and ' : ', ')}
                    <a href={links.city(city)}>{city.name}</a>
                  </span>
                ))}
                .
              </>
            )}
            <Cite source={c.source} />
          </li>
        );
      })}
    </ul>
  );
}
