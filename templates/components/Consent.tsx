import { fill, type Strings } from '../../src/i18n/catalogue.js';
import type { Links } from '../../src/urls.js';

/**
 * The consent banner, by purpose: Analytics and Advertising apart, each naming its provider and
 * what it does, both unchecked (nothing is on before the visitor says so). Accept all, Refuse all
 * (one press each), or Save my choices for what is checked. Rendered hidden on every page of a
 * site with a measurement id, shown by the browser script while no choice is stored (or the
 * visitor asks again), fixed at the bottom so nothing on the page moves.
 */
export function ConsentBanner({
  t,
  links,
  callrail,
}: {
  t: Strings;
  links: Links;
  /** CallRail's script runs with advertising consent: the purpose names it. */
  callrail: boolean;
}) {
  const c = t.consent;
  return (
    <section className="consent" data-consent="" hidden aria-labelledby="consent-title">
      <div className="container consent-inner">
        <h2 id="consent-title" className="consent-title" tabIndex={-1}>
          {c.title}
        </h2>
        <p className="consent-text">
          {c.text} <a href={links.page('privacy')}>{c.privacyLink}</a>
        </p>
        <ul className="consent-purposes">
          <li>
            <label className="choice">
              <input type="checkbox" name="analytics" data-consent-purpose="analytics" />{' '}
              <span>
                <strong>{c.analyticsName}</strong>. {c.analyticsText}
              </span>
            </label>
          </li>
          <li>
            <label className="choice">
              <input type="checkbox" name="advertising" data-consent-purpose="advertising" />{' '}
              <span>
                <strong>{c.advertisingName}</strong>.{' '}
                {fill(c.advertisingText, { callrail: callrail ? c.advertisingCallrail : '' })}
              </span>
            </label>
          </li>
        </ul>
        <div className="consent-actions">
          <button type="button" className="button button-primary" data-consent-choice="all">
            {c.acceptAll}
          </button>
          <button type="button" className="button button-primary" data-consent-choice="none">
            {c.refuseAll}
          </button>
          <button type="button" className="button button-outline" data-consent-choice="some">
            {c.save}
          </button>
        </div>
      </div>
    </section>
  );
}

/** The footer's way back to the choice: a list item, shown by the script. */
export function ConsentSettings({ t }: { t: Strings }) {
  return (
    <li data-consent-settings="" hidden>
      <button type="button" className="link-button" data-consent-open="">
        {t.consent.settings}
      </button>
    </li>
  );
}
