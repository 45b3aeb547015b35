import { fill, fillParts, type Strings } from '../../src/i18n/catalogue.js';
import type { Picture, Pictures } from '../../src/photos/plan.js';
import type { Body, Insurer, ProvinceFacts } from '../../src/site/facts-schema.js';
import type { Formats } from '../../src/site/format.js';
import type { City } from '../../src/site/model.js';
import { checkedPhone } from '../../src/site/phone.js';
import type { Adjuster, Business, Office } from '../../src/site/schema.js';
import type { Links } from '../../src/urls.js';
import { Cite, LicenceLookup } from './LocalFacts.js';
import { Photo } from './Photo.js';
import { Section } from './Section.js';

/** The firm's adjusters who serve a city, as site.json names them. */
export const adjustersIn = (business: Business | undefined, city: City): Adjuster[] =>
  business?.adjusters?.filter((a) => a.cities.includes(city.slug)) ?? [];

/** The firm's offices in a city, as site.json gives them. */
export const officesIn = (business: Business | undefined, city: City): Office[] =>
  business?.offices?.filter((o) => o.city === city.slug) ?? [];

/**
 * What choosing an adjuster in a city comes to: the body that licenses or certifies them in its
 * province and how to check, what its rules say (fees among them), what to ask before signing,
 * and the firm's own adjusters there when the owner names them.
 */
export function ChoosingAnAdjuster({
  city,
  province,
  adjusters,
  portraits,
  t,
  links,
}: {
  city: City;
  province: ProvinceFacts | undefined;
  adjusters: readonly Adjuster[];
  /** The adjusters' photos, resized (assets.photos). */
  portraits: Pictures['portraits'] | undefined;
  t: Strings;
  links: Links;
}) {
  const h = t.claimsHelp;
  const asks = [h.ask1, h.ask2, h.ask3, h.ask4, h.ask5];
  return (
    <>
      {province && (
        <Section
          id="licence-title"
          title={fill(h.licenceTitle, { province: city.province ?? '' })}
          intro={h.licenceIntro}
        >
          <div className="prose">
            <p>
              {province.regulator.url ? (
                <a href={province.regulator.url}>{province.regulator.name}</a>
              ) : (
                province.regulator.name
              )}
              . {province.regulator.text}
              <Cite source={province.regulator.source} t={t} />
            </p>
            {province.regulator.lookup && (
              <LicenceLookup lookup={province.regulator.lookup} t={t} />
            )}
            {province.facts.map((f) => (
              <p key={f.text}>
                {f.text}
                <Cite source={f.source} t={t} />
              </p>
            ))}
          </div>
        </Section>
      )}
      <Section id="ask-title" title={h.askTitle}>
        <ul className="bullet-list">
          {asks.map((q) => (
            <li key={q}>{q}</li>
          ))}
        </ul>
      </Section>
      <AdjustersSection
        title={fill(h.adjustersTitle, { city: city.name })}
        adjusters={adjusters}
        portraits={portraits}
        t={t}
        links={links}
      />
    </>
  );
}

/**
 * The firm's own adjusters, named, each with their portrait (where site.json gives one) and
 * licences: on the About pages and on the pages of the cities they serve. Nothing for none.
 */
export function AdjustersSection({
  title,
  adjusters,
  portraits,
  t,
  links,
}: {
  title: string;
  adjusters: readonly Adjuster[];
  /** The adjusters' photos, resized (assets.photos). */
  portraits: Pictures['portraits'] | undefined;
  t: Strings;
  links: Links;
}) {
  if (adjusters.length === 0) return null;
  return (
    <Section id="adjusters-title" title={title}>
      <ul className="adjusters">
        {adjusters.map((a) => (
          <li key={a.name}>
            {a.photo && portraits?.[a.photo] && (
              <Photo
                picture={portraits[a.photo] as Picture}
                alt={a.name}
                sizes="96px"
                links={links}
                className="portrait"
              />
            )}
            <strong>{a.name}</strong>
            {a.title && <span className="muted"> {a.title}</span>}
            {a.licences.length > 0 && (
              <ul className="licences">
                {a.licences.map((l) => (
                  <li key={`${l.province} ${l.number}`}>
                    {fill(t.layout.licence, {
                      province: l.province,
                      issuedBy: l.issuedBy,
                      number: l.number,
                    })}
                  </li>
                ))}
              </ul>
            )}
          </li>
        ))}
      </ul>
    </Section>
  );
}

/**
 * Where a claim in a city is made and taken further: insurers' claims lines as their own pages
 * give them, the province's and the country's complaint services, and the firm's office there.
 */
export function ReportingAClaim({
  city,
  insurers,
  complaints,
  offices,
  t,
  format,
  links,
}: {
  city: City;
  insurers: readonly Insurer[];
  complaints: readonly Body[];
  offices: readonly Office[];
  t: Strings;
  format: Formats;
  links: Links;
}) {
  return (
    <>
      {insurers.length > 0 && (
        <InsurerLines insurers={insurers} t={t} format={format} links={links} />
      )}
      {complaints.length > 0 && (
        <Section
          id="complaints-title"
          title={t.localFacts.complaintsTitle}
          intro={t.localFacts.complaintsIntro}
        >
          <ul className="bullet-list fact-list">
            {complaints.map((b) => (
              <li key={b.name}>
                {fillParts(t.localFacts.body, {
                  name: <strong key="name">{b.url ? <a href={b.url}>{b.name}</a> : b.name}</strong>,
                  text: b.text,
                })}
                <Cite source={b.source} t={t} />
              </li>
            ))}
          </ul>
        </Section>
      )}
      {offices.length > 0 && (
        <Offices city={city} offices={offices} t={t} format={format} links={links} />
      )}
    </>
  );
}

/** Insurers' claims lines, as their own pages give them. */
function InsurerLines({
  insurers,
  t,
  format,
  links,
}: {
  insurers: readonly Insurer[];
  t: Strings;
  format: Formats;
  links: Links;
}) {
  const h = t.claimsHelp;
  return (
    <Section id="insurers-title" title={h.insurersTitle} intro={h.insurersIntro}>
      <ul className="bullet-list fact-list">
        {insurers.map((i) => (
          <li key={i.name}>
            {fillParts(h.insurer, {
              name: <strong key="name">{i.name}</strong>,
              phone: (
                <a key="phone" href={links.tel(checkedPhone(i.phone))}>
                  {format.phone(checkedPhone(i.phone))}
                </a>
              ),
            })}
            <Cite source={i.source} t={t} />
          </li>
        ))}
      </ul>
    </Section>
  );
}

/** The firm's offices in the city, with their phone numbers. */
function Offices({
  city,
  offices,
  t,
  format,
  links,
}: {
  city: City;
  offices: readonly Office[];
  t: Strings;
  format: Formats;
  links: Links;
}) {
  const h = t.claimsHelp;
  return (
    <Section id="office-title" title={fill(h.officeTitle, { city: city.name })}>
      {offices.map((o) => (
        <address key={`${o.street} ${o.postalCode}`}>
          {o.street}
          <br />
          {city.name} {city.provinceCode} {o.postalCode}
          {o.phone && (
            <>
              <br />
              {fillParts(h.officePhone, {
                phone: (
                  <a key="phone" href={links.tel(checkedPhone(o.phone))}>
                    {format.phone(checkedPhone(o.phone))}
                  </a>
                ),
              })}
            </>
          )}
        </address>
      ))}
    </Section>
  );
}
