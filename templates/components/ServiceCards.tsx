import { fill, type Strings } from '../../src/i18n/catalogue.js';
import type { ServicesContent } from '../../src/site/content-schema.js';
import type { Links } from '../../src/urls.js';
import { Icon, type IconName } from './Icon.js';

const ICONS: Record<string, IconName> = {
  'residential-claims': 'home',
  'commercial-claims': 'building',
  'fire-damage-claims': 'fire',
  'flood-damage-claims': 'water',
  'storm-damage-claims': 'wind',
  'other-damage-claims': 'shield',
};

/** The six service cards of the Services page, each linking to its claim-type page. */
export function ServiceCards({
  cards,
  scope,
  place,
  t,
  links,
}: {
  cards: ServicesContent['cards'];
  scope: string;
  place: string;
  t: Strings;
  links: Links;
}) {
  return (
    <ul className="card-grid">
      {cards.map((c) => (
        <li key={c.segment} className="card service-card">
          <span className="card-icon">
            <Icon name={ICONS[c.segment] ?? 'shield'} size={28} />
          </span>
          <h3>{c.title}</h3>
          <p>{c.description}</p>
          <ul className="checklist">
            {c.features.map((f) => (
              <li key={f}>{f}</li>
            ))}
          </ul>
          <a className="card-link" href={links.cityPage(scope, c.segment)}>
            {fill(t.serviceCards.link, { service: c.title, place })}
          </a>
        </li>
      ))}
    </ul>
  );
}
