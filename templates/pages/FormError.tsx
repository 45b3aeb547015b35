import { fillParts } from '../../src/i18n/catalogue.js';
import type { PageContext } from '../../src/render/context.js';
import { NATIONAL } from '../../src/site/segments.js';
import { Layout } from '../layout/Layout.js';

/** Where the lead endpoint sends a form posted without JavaScript that it could not accept. */
export function FormErrorPage(ctx: PageContext) {
  const { t, links } = ctx.site;
  const phone = ctx.site.format.phone(ctx.site.phone);
  return (
    <Layout ctx={ctx}>
      <section className="section">
        <div className="container narrow">
          <h1>{t.routes.formErrorTitle}</h1>
          <p className="lead">
            {fillParts(t.formError.lead, {
              phone: (
                <a key="phone" href={links.tel(ctx.site.phone)}>
                  {phone}
                </a>
              ),
            })}
          </p>
          <ul>
            <li>{t.formError.fieldReason}</li>
            <li>{t.formError.rateReason}</li>
          </ul>
          <p>
            <a
              className="button button-primary"
              href={links.cityPage(NATIONAL, 'free-consultation')}
              data-history-back=""
            >
              {t.formError.back}
            </a>
          </p>
        </div>
      </section>
    </Layout>
  );
}
