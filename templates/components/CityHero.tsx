import type { ReactNode } from 'react';
import type { Strings } from '../../src/i18n/catalogue.js';
import { Shared } from '../../src/render/fragments.js';
import { Icon } from './Icon.js';

/**
 * A hero with the page heading and promises on one side and a form on the other. On a phone the
 * heading comes first, then the form, then the rest: the form's first question is in the first
 * screen. The three parts come in that order in the page too, so a first paint of a page still
 * arriving never has the rest where the form will be (Lighthouse saw it jump by 0.4-0.5).
 */
export function CityHero({
  title,
  eyebrow,
  lead,
  fee,
  actions,
  art,
  trust,
  finder,
  t,
  children,
}: {
  title: string;
  /** A short line above the heading. */
  eyebrow?: string;
  lead: ReactNode;
  /** The first promise: how the adjuster is paid (Québec's differs); the standard one by default. */
  fee?: string;
  /** Buttons under the promises. */
  actions?: ReactNode;
  /** A decorative illustration under the promises, shown where the copy leaves room. */
  art?: ReactNode;
  /** Who the visitor is dealing with (Trust), beside the form. */
  trust?: ReactNode;
  /** The city finder, first under the form (the home page's: in a phone's first two screens). */
  finder?: ReactNode;
  t: Strings;
  children: ReactNode;
}) {
  return (
    <section className="hero hero-form">
      <div className="container hero-grid">
        <div className="hero-title">
          {eyebrow && <p className="eyebrow">{eyebrow}</p>}
          <h1>{title}</h1>
        </div>
        <div className="hero-form-card">{children}</div>
        <div className="hero-more">
          {finder}
          <p className="lead">{lead}</p>
          <Shared component={Promises} props={{ fee: fee ?? t.cityHero.feeStandard, t }} />
          {actions && <div className="hero-actions">{actions}</div>}
          {trust}
          {art && <div className="hero-art">{art}</div>}
        </div>
      </div>
    </section>
  );
}

/** The same promises on every page with a hero form: rendered once per build. */
function Promises({ fee, t }: { fee: string; t: Strings }) {
  return (
    <ul className="promise-list">
      <li>
        <Icon name="check" size={20} /> {fee}
      </li>
      {/* The owner's promise (site.json responsePromise), a sentence set here as a point; none set, no point. */}
      {t.cityHero.promiseResponse && (
        <li>
          <Icon name="check" size={20} /> {t.cityHero.promiseResponse.replace(/\.$/, '')}
        </li>
      )}
      <li>
        <Icon name="check" size={20} /> {t.cityHero.promiseTimeline}
      </li>
    </ul>
  );
}
