import { provinceByCode } from '../../src/site/provinces.js';
import type { Business } from '../../src/site/schema.js';

/** The business's address and licences, as much as site.json says: nothing for none. */
export function BusinessDetails({ business }: { business?: Business }) {
  const { address, licences = [] } = business ?? {};
  if (!address && licences.length === 0) return null;
  return (
    <div className="business-details">
      {address && (
        <address>
          {address.street}, {address.city}, {address.province} {address.postalCode}
        </address>
      )}
      {licences.length > 0 && (
        <ul className="licences">
          {licences.map((l) => (
            <li key={`${l.province} ${l.number}`}>
              {provinceByCode(l.province)?.name ?? l.province}: {l.issuedBy} licence {l.number}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
