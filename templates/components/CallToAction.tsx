import { links } from '../../src/urls.js';
import { Icon } from './Icon.js';

/** The closing call to action: assessment link and the toll-free number. */
export function CallToAction({
  phone,
  scope,
  place,
  text,
}: {
  phone: string;
  scope: string;
  place: string;
  /** Instead of the standard offer (Québec's pages say how adjusting works there). */
  text?: string;
}) {
  return (
    <section className="cta" aria-labelledby="cta-title">
      <div className="container cta-inner">
        <div>
          <h2 id="cta-title">Get the Settlement You Deserve</h2>
          <p>
            {text ??
              `Talk to a licensed public adjuster serving ${place} today. No upfront fees: you pay 5-15% of the settlement, only when your claim succeeds.`}
          </p>
        </div>
        <div className="cta-actions">
          <a className="button button-accent" href={links.cityPage(scope, 'free-consultation')}>
            Free Claim Assessment
          </a>
          <a className="button button-light" href={links.tel(phone)}>
            <Icon name="phone" size={20} /> Call {phone}
          </a>
        </div>
      </div>
    </section>
  );
}
