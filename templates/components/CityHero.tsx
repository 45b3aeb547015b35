import type { ReactNode } from 'react';
import type { Strings } from '../../src/i18n/catalogue.js';
import { Shared } from '../../src/render/fragments.js';
import { Icon } from './Icon.js';

/** A hero with the page heading and promises on one side and a form on the other. */
export function CityHero({
  title,
  lead,
  fee,
  t,
  children,
}: {
  title: string;
  lead: ReactNode;
  /** The first promise: how the adjuster is paid (Québec's differs); the standard one by default. */
  fee?: string;
  t: Strings;
  children: ReactNode;
}) {
  return (
    <section className="hero hero-form">
      <div className="container hero-grid">
        <div className="hero-copy">
          <h1>{title}</h1>
          <p className="lead">{lead}</p>
          <Shared component={Promises} props={{ fee: fee ?? t.cityHero.feeStandard, t }} />
        </div>
        <div className="hero-form-card">{children}</div>
      </div>
    </section>
  );
}

/** The same three promises on every page with a hero form: rendered once per build. */
function Promises({ fee, t }: { fee: string; t: Strings }) {
  return (
    <ul className="promise-list">
      <li>
        <Icon name="check" size={20} /> {fee}
      </li>
      <li>
        <Icon name="check" size={20} /> {t.cityHero.promiseResponse}
      </li>
      <li>
        <Icon name="check" size={20} /> {t.cityHero.promiseTimeline}
      </li>
    </ul>
  );
}
