import type { Strings } from '../../src/i18n/catalogue.js';
import { EMAIL_PATTERN, LIMITS } from '../../src/lead/rules.js';

/** The hidden field only bots fill in; the lead endpoint rejects any submission that has it. */
export function Honeypot({ t }: { t: Strings }) {
  return (
    <div className="hp" aria-hidden="true">
      <label>
        {t.formFields.honeypot}
        <input type="text" name="website" tabIndex={-1} autoComplete="off" />
      </label>
    </div>
  );
}

/** Full name, email and phone: the fields every lead form asks for, with the endpoint's limits. */
export function PersonFields({
  prefix,
  phoneLabel,
  phoneRequired,
  t,
}: {
  prefix: string;
  phoneLabel: string;
  phoneRequired: boolean;
  t: Strings;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${prefix}-name`}>{t.formFields.fullName}</label>
        <input
          id={`${prefix}-name`}
          name="fullName"
          type="text"
          autoComplete="name"
          required
          maxLength={LIMITS.name}
        />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-email`}>{t.formFields.email}</label>
        <input
          id={`${prefix}-email`}
          name="email"
          type="email"
          autoComplete="email"
          required
          pattern={EMAIL_PATTERN}
          maxLength={LIMITS.email}
          aria-describedby={`${prefix}-email-error`}
        />
        {/* Said once the field is left with an address that is not one (src/client/email-check.ts):
            empty until then, so that nothing is read with the field. */}
        <p
          id={`${prefix}-email-error`}
          className="field-error"
          aria-live="polite"
          data-email-error={t.formFields.emailInvalid}
        />
      </div>
      <div className="field">
        <label htmlFor={`${prefix}-phone`}>{phoneLabel}</label>
        <input
          id={`${prefix}-phone`}
          name="phone"
          type="tel"
          autoComplete="tel"
          required={phoneRequired}
          maxLength={LIMITS.phone}
        />
      </div>
    </>
  );
}

/**
 * Where the browser script puts Cloudflare's Turnstile widget, when the site has a key: its room
 * is kept from the start (site.css), so nothing moves when it appears.
 */
export function TurnstileSlot() {
  return <div className="turnstile-slot" data-turnstile-slot="" />;
}
