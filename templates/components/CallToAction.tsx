import { fill, type Strings } from '../../src/i18n/catalogue.js';
import { Shared } from '../../src/render/fragments.js';
import type { Site } from '../../src/site/model.js';
import type { Links } from '../../src/urls.js';
import { Icon } from './Icon.js';

/** The closing call to action: assessment link and the toll-free number. */
export function CallToAction({
  phone,
  tel,
  scope,
  place,
  text,
  t,
  links,
}: {
  /** As the page's language writes it. */
  phone: string;
  /** The call link of that number (links.tel). */
  tel: string;
  scope: string;
  place: string;
  /** Instead of the standard offer (Québec's pages say how adjusting works there). */
  text?: string;
  t: Strings;
  links: Links;
}) {
  return (
    <section className="cta" aria-labelledby="cta-title">
      <div className="container cta-inner">
        <div>
          <h2 id="cta-title">{t.callToAction.title}</h2>
          <p>{text ?? fill(t.callToAction.text, { place })}</p>
        </div>
        <div className="cta-actions">
          <a className="button button-accent" href={links.cityPage(scope, 'free-consultation')}>
            {t.layout.assessment}
          </a>
          <a className="button button-light" href={tel}>
            <Icon name="phone" size={20} /> {fill(t.layout.callBarCall, { phone })}
          </a>
        </div>
      </div>
    </section>
  );
}

/**
 * The call to action as pages close, as a shared fragment: the site's number, words and links in
 * the page's language; the same place and words on two pages make one fragment.
 */
export function SiteCallToAction({
  site,
  scope,
  place,
  text,
}: {
  site: Site;
  scope: string;
  place: string;
  /** Instead of the standard offer (Québec's pages). */
  text?: string;
}) {
  return (
    <Shared
      component={CallToAction}
      props={{
        phone: site.format.phone(site.phone),
        tel: site.links.tel(site.phone),
        scope,
        place,
        text,
        t: site.t,
        links: site.links,
      }}
    />
  );
}
