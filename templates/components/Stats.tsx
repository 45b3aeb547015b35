import type { AboutContent } from '../../src/site/content-schema.js';

/** The About page's figures. */
export function Stats({ stats }: { stats: AboutContent['stats'] }) {
  return (
    <section className="stats" aria-label="Our results">
      <div className="container">
        <dl className="stats-grid">
          {stats.map((s) => (
            <div key={s.label} className="stat">
              <dt>{s.label}</dt>
              <dd>{s.value}</dd>
            </div>
          ))}
        </dl>
      </div>
    </section>
  );
}
