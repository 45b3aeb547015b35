import type { Strings } from '../../src/i18n/catalogue.js';
import type { Links } from '../../src/urls.js';

/**
 * The analytics consent banner: rendered hidden on every page of a site with a measurement id,
 * shown by the browser script while the visitor has made no choice (or asks again), fixed at the
 * bottom so nothing on the page moves. Refusing is one press, like accepting.
 */
export function ConsentBanner({ t, links }: { t: Strings; links: Links }) {
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
        <div className="consent-actions">
          <button type="button" className="button button-primary" data-consent-choice="granted">
            {c.accept}
          </button>
          <button type="button" className="button button-primary" data-consent-choice="denied">
            {c.refuse}
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
