import type { ReactNode } from 'react';
import { Shared } from '../../src/render/fragments.js';
import { Icon } from './Icon.js';

/** A hero with the page heading and promises on one side and a form on the other. */
export function CityHero({
  title,
  lead,
  fee = STANDARD_FEE,
  children,
}: {
  title: string;
  lead: ReactNode;
  /** The first promise: how the adjuster is paid (Québec's differs). */
  fee?: string;
  children: ReactNode;
}) {
  return (
    <section className="hero hero-form">
      <div className="container hero-grid">
        <div className="hero-copy">
          <h1>{title}</h1>
          <p className="lead">{lead}</p>
          <Shared component={Promises} props={{ fee }} />
        </div>
        <div className="hero-form-card">{children}</div>
      </div>
    </section>
  );
}

const STANDARD_FEE = 'No upfront fees: 5-15% of the settlement, only on success';

/** The same three promises on every page with a hero form: rendered once per build. */
function Promises({ fee }: { fee: string }) {
  return (
    <ul className="promise-list">
      <li>
        <Icon name="check" size={20} /> {fee}
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
