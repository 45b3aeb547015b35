import { fill, type Strings } from '../../src/i18n/catalogue.js';
import { Shared } from '../../src/render/fragments.js';
import type { ProvinceFacts } from '../../src/site/facts-schema.js';
import type { Formats } from '../../src/site/format.js';
import type { Site } from '../../src/site/model.js';
import { provinceByCode } from '../../src/site/provinces.js';
import type { Business, SiteSettings } from '../../src/site/schema.js';
import { businessShown } from '../../src/site/service-area.js';
import { Icon } from './Icon.js';

/**
 * Who the visitor is dealing with, beside the form: the business's legal name and address, the
 * year it was founded, each licence with the regulator's own look-up where there is one, its
 * associations, and up to two reviews with their platform and date. Only what site.json gives:
 * nothing for none, so no page shows a credential the owner has not stated.
 */
function Trust(props: TrustProps) {
  // A shared fragment renders to an element: an empty one where there is nothing to show.
  return <>{trustPanel(props)}</>;
}

interface TrustProps {
  business?: Business | undefined;
  reviews?: SiteSettings['reviews'];
  provinces: ReadonlyMap<string, ProvinceFacts>;
  t: Strings;
  format: Formats;
}

function trustPanel({ business, reviews = [], provinces, t, format }: TrustProps) {
  const { legalName, address, founded, licences = [], associations = [] } = business ?? {};
  const shown = reviews.slice(0, 2);
  if (
    !legalName &&
    !address &&
    !founded &&
    licences.length === 0 &&
    associations.length === 0 &&
    shown.length === 0
  )
    return null;
  return (
    <aside className="trust" aria-label={t.trust.label}>
      {(legalName || address || founded) && (
        <p className="trust-who">
          {legalName && <strong>{legalName}</strong>}
          {address && (
            <>
              {legalName && <br />}
              {address.street}, {address.city}, {address.province} {address.postalCode}
            </>
          )}
          {founded && (
            <>
              {(legalName || address) && <br />}
              {fill(t.trust.since, { year: founded })}
            </>
          )}
        </p>
      )}
      {(licences.length > 0 || associations.length > 0) && (
        <Credentials licences={licences} associations={associations} provinces={provinces} t={t} />
      )}
      {shown.map((r) => (
        <figure key={r.url} className="trust-review">
          <blockquote>
            <p>{r.text}</p>
          </blockquote>
          <figcaption>
            {r.author},{' '}
            <a href={r.url} rel="noopener">
              {r.rating ? fill(t.trust.rating, { rating: r.rating, source: r.source }) : r.source}
            </a>
            , <time dateTime={r.date}>{format.longDate(r.date)}</time>
          </figcaption>
        </figure>
      ))}
    </aside>
  );
}

/** Each licence, with the regulator's look-up where there is one, and each association. */
function Credentials({
  licences,
  associations,
  provinces,
  t,
}: {
  licences: NonNullable<Business['licences']>;
  associations: NonNullable<Business['associations']>;
  provinces: ReadonlyMap<string, ProvinceFacts>;
  t: Strings;
}) {
  return (
    <ul className="trust-list">
      {licences.map((l) => {
        const lookup = provinces.get(l.province)?.regulator.lookup;
        return (
          <li key={`${l.province} ${l.number}`}>
            <Icon name="shield" size={18} />{' '}
            <span>
              {fill(t.layout.licence, {
                province: provinceByCode(l.province)?.name ?? l.province,
                issuedBy: l.issuedBy,
                number: l.number,
              })}
              {lookup && (
                <>
                  {' '}
                  <a href={lookup.url} rel="noopener">
                    {t.trust.check}
                  </a>
                </>
              )}
            </span>
          </li>
        );
      })}
      {associations.map((a) => (
        <li key={a.url}>
          <Icon name="check" size={18} />{' '}
          <a href={a.url} rel="noopener">
            {fill(t.trust.member, { association: a.name })}
          </a>
        </li>
      ))}
    </ul>
  );
}

/** The site's trust panel beside a form, shared by every page that has one (rendered once). */
export function SiteTrust({ site }: { site: Site }) {
  return (
    <Shared
      component={Trust}
      props={{
        business: businessShown(site),
        reviews: site.settings.reviews,
        provinces: site.facts.provinces,
        t: site.t,
        format: site.format,
      }}
    />
  );
}
