import type { ReactNode } from 'react';
import { Shared } from '../../src/render/fragments.js';
import { Icon } from './Icon.js';

/** A hero with the page heading and promises on one side and a form on the other. */
export function CityHero({
  title,
  lead,
  children,
}: {
  title: string;
  lead: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className="hero hero-form">
      <div className="container hero-grid">
        <div className="hero-copy">
          <h1>{title}</h1>
          <p className="lead">{lead}</p>
          <Shared component={Promises} props={{}} />
        </div>
        <div className="hero-form-card">{children}</div>
      </div>
    </section>
  );
}

/** The same three promises on every page with a hero form: rendered once per build. */
function Promises() {
  return (
    <ul className="promise-list">
      <li>
        <Icon name="check" size={20} /> No upfront fees: 5-15% of the settlement, only on success
      </li>
      <li>
        <Icon name="check" size={20} /> A licensed adjuster responds within 24 hours
      </li>
      <li>
        <Icon name="check" size={20} /> Residential claims typically resolved in 30-90 days
      </li>
    </ul>
  );
}
