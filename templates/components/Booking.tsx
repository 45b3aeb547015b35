import type { Strings } from '../../src/i18n/catalogue.js';

/**
 * The optional booking step of the confirmation page: the operator's GoHighLevel calendar, in a
 * frame that loads only once the visitor opens it (a closed <details> renders nothing of it, and
 * the frame loads lazily), so GoHighLevel hears of no one who does not ask to book. Works without
 * JavaScript; the CSP allows the calendar's origin only when one is set.
 */
export function Booking({ calendar, t }: { calendar: string; t: Strings }) {
  const c = t.confirmation;
  return (
    <section className="card booking" aria-labelledby="booking-title">
      <h2 id="booking-title">{c.bookingTitle}</h2>
      <p>{c.bookingText}</p>
      <details className="booking-details">
        <summary className="button button-outline">{c.bookingOpen}</summary>
        <iframe
          className="booking-frame"
          src={calendar}
          title={c.bookingFrame}
          loading="lazy"
          referrerPolicy="strict-origin-when-cross-origin"
        />
      </details>
    </section>
  );
}
