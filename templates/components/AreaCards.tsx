import type { City } from '../../src/site/model.js';
import type { Links } from '../../src/urls.js';
import { Icon } from './Icon.js';

/** A city's areas (for canada: the provinces and territories), each linking to its page. */
export function AreaCards({ city, links }: { city: City; links: Links }) {
  return (
    <ul className="area-grid">
      {city.areas.map((a) => (
        <li key={a.slug}>
          <a className="area-card" href={links.cityPage(city, a)}>
            <Icon name="pin" size={20} />
            <span>{a.name}</span>
          </a>
        </li>
      ))}
    </ul>
  );
}
