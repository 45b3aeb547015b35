import { fill, type Strings } from '../../src/i18n/catalogue.js';
import type { Testimonial } from '../../src/site/content-schema.js';
import type { Formats } from '../../src/site/format.js';
import { Icon } from './Icon.js';
import { SampleLabel } from './SampleLabel.js';

/** How much more than the insurer's offer: round((final/offer - 1) * 100). */
export function percentIncrease(t: Pick<Testimonial, 'insurerOffer' | 'finalSettlement'>): number {
  return Math.round((t.finalSettlement / t.insurerOffer - 1) * 100);
}

const STAR_KEYS = ['s1', 's2', 's3', 's4', 's5'];

function Card({ item, t, format }: { item: Testimonial; t: Strings; format: Formats }) {
  return (
    <figure className="testimonial">
      {item.sample && <SampleLabel t={t} />}
      <div className="testimonial-head">
        <span
          className="stars"
          role="img"
          aria-label={fill(t.testimonials.rating, { rating: item.rating, best: 5 })}
        >
          {STAR_KEYS.slice(0, item.rating).map((k) => (
            <Icon key={k} name="star" size={18} />
          ))}
        </span>
        <span className="testimonial-type">{item.type}</span>
      </div>
      <blockquote>
        <p>{item.text}</p>
      </blockquote>
      <dl className="testimonial-figures">
        <div>
          <dt>{t.testimonials.insurerOffer}</dt>
          <dd>{format.dollars(item.insurerOffer)}</dd>
        </div>
        <div>
          <dt>{t.testimonials.finalSettlement}</dt>
          <dd>{format.dollars(item.finalSettlement)}</dd>
        </div>
        <div>
          <dt>{t.testimonials.increase}</dt>
          <dd className="increase">
            {fill(t.testimonials.increaseValue, { percent: percentIncrease(item) })}
          </dd>
        </div>
      </dl>
      <figcaption>
        <span className="avatar" aria-hidden="true">
          {item.name.charAt(0)}
        </span>
        {item.name}, {item.city}
      </figcaption>
    </figure>
  );
}

/**
 * The testimonial strip: still until the visitor moves it (a scroll by hand, a swipe, the arrow
 * keys), its cards on the content column with the heading, whole ones shown at rest (each snaps
 * to the strip's start). The page shows no section at all without testimonials.
 */
export function Testimonials({
  items,
  t,
  format,
}: {
  items: readonly Testimonial[];
  t: Strings;
  format: Formats;
}) {
  return (
    <section className="section" aria-labelledby="testimonials-title">
      <div className="container">
        <h2 id="testimonials-title">{t.testimonials.title}</h2>
        <p className="section-intro">{t.testimonials.intro}</p>
        {/* Focusable so keyboard users can scroll it with the arrow keys. */}
        <section
          className="carousel"
          data-carousel=""
          // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region must be keyboard-reachable (WCAG 2.1.1)
          tabIndex={0}
          aria-label={t.testimonials.carouselLabel}
        >
          <ul className="carousel-list">
            {items.map((item) => (
              <li key={item.name}>
                <Card item={item} t={t} format={format} />
              </li>
            ))}
          </ul>
        </section>
      </div>
    </section>
  );
}
