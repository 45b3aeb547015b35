import type { Strings } from '../../src/i18n/catalogue.js';
import type { AboutContent } from '../../src/site/content-schema.js';
import { SampleLabel } from './SampleLabel.js';

/** The About page's figures. */
export function Stats({ stats, t }: { stats: AboutContent['stats']; t: Strings }) {
  return (
    <section className="stats" aria-label={t.stats.label}>
      <div className="container">
        <dl className="stats-grid">
          {stats.map((s) => (
            <div key={s.label} className="stat">
              <dt>{s.label}</dt>
              <dd>
                {s.value}
                {s.sample && (
                  <>
                    {' '}
                    <SampleLabel t={t} />
                  </>
                )}
              </dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
