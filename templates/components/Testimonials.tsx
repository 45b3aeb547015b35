import type { Testimonial } from '../../src/site/content-schema.js';
import { formatDollars } from '../../src/site/format.js';
import { Icon } from './Icon.js';

/** How much more than the insurer's offer: round((final/offer - 1) * 100). */
export function percentIncrease(t: Pick<Testimonial, 'insurerOffer' | 'finalSettlement'>): number {
  return Math.round((t.finalSettlement / t.insurerOffer - 1) * 100);
}

const STAR_KEYS = ['s1', 's2', 's3', 's4', 's5'];

function Card({ t }: { t: Testimonial }) {
  return (
    <figure className="testimonial">
      <div className="testimonial-head">
        <span className="stars" role="img" aria-label={`Rated ${t.rating} out of 5`}>
          {STAR_KEYS.slice(0, t.rating).map((k) => (
            <Icon key={k} name="star" size={18} />
          ))}
        </span>
        <span className="testimonial-type">{t.type}</span>
      </div>
      <blockquote>
        <p>{t.text}</p>
      </blockquote>
      <dl className="testimonial-figures">
        <div>
          <dt>Insurer's offer</dt>
          <dd>{formatDollars(t.insurerOffer)}</dd>
        </div>
        <div>
          <dt>Final settlement</dt>
          <dd>{formatDollars(t.finalSettlement)}</dd>
        </div>
        <div>
          <dt>Increase</dt>
          <dd className="increase">+{percentIncrease(t)}%</dd>
        </div>
      </dl>
      <figcaption>
        <span className="avatar" aria-hidden="true">
          {t.name.charAt(0)}
        </span>
        {t.name}, {t.city}
      </figcaption>
    </figure>
  );
}

/**
 * The rotating testimonial carousel. The list is rendered twice so the script can
 * loop it seamlessly; the copy is hidden from assistive technology.
 */
export function Testimonials({ items }: { items: readonly Testimonial[] }) {
  return (
    <section className="section section-soft" aria-labelledby="testimonials-title">
      <div className="container">
        <h2 id="testimonials-title">What Our Clients Say</h2>
        <p className="section-intro">
          What an insurer first offered, and what the claim settled for once an adjuster took it on.
        </p>
        {/* Shown by the script where the strip moves: anything moving longer than five seconds
            needs a way to stop it (WCAG 2.2.2). */}
        <button
          type="button"
          className="button button-outline carousel-toggle"
          data-carousel-toggle=""
          aria-controls="testimonials-carousel"
          aria-pressed="false"
          hidden
        >
          Pause testimonials
        </button>
      </div>
      {/* Focusable so keyboard users can scroll it with the arrow keys; focus also pauses it. */}
      <section
        id="testimonials-carousel"
        className="carousel"
        data-carousel=""
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be keyboard-reachable (WCAG 2.1.1)
        tabIndex={0}
        aria-label="Client testimonials, scrolling"
      >
        <div className="carousel-track">
          <ul className="carousel-list">
            {items.map((t) => (
              <li key={t.name}>
                <Card t={t} />
              </li>
            ))}
          </ul>
          <ul className="carousel-list" aria-hidden="true" data-carousel-copy="">
            {items.map((t) => (
              <li key={t.name}>
                <Card t={t} />
              </li>
            ))}
          </ul>
        </div>
      </section>
    </section>
  );
}
