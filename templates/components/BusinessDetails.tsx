import { fill, type Strings } from '../../src/i18n/catalogue.js';
import { provinceByCode } from '../../src/site/provinces.js';
import type { Business } from '../../src/site/schema.js';

/**
 * The business's address, licences, founding year and associations, as much as site.json says:
 * nothing for none.
 */
export function BusinessDetails({ business, t }: { business?: Business; t: Strings }) {
  const { address, licences = [], founded, associations = [] } = business ?? {};
  if (!address && licences.length === 0 && !founded && associations.length === 0) return null;
  return (
    <div className="business-details">
      {founded && <p>{fill(t.trust.since, { year: founded })}</p>}
      {address && (
        <address>
          {address.street}, {address.city}, {address.province} {address.postalCode}
        </address>
      )}
      {licences.length > 0 && (
        <ul className="licences">
          {licences.map((l) => (
            <li key={`${l.province} ${l.number}`}>
              {fill(t.layout.licence, {
                province: provinceByCode(l.province)?.name ?? l.province,
                issuedBy: l.issuedBy,
                number: l.number,
              })}
            </li>
          ))}
        </ul>
      )}
      {associations.length > 0 && (
        <ul className="associations">
          {associations.map((a) => (
            <li key={a.url}>
              <a href={a.url} rel="noopener">
                {fill(t.trust.member, { association: a.name })}
              </a>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
