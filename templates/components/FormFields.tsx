import { EMAIL_PATTERN, LIMITS } from '../../src/lead/rules.js';

/** The hidden field only bots fill in; the lead endpoint rejects any submission that has it. */
export function Honeypot() {
  return (
    <div className="hp" aria-hidden="true">
      <label>
        Leave this field empty
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
}: {
  prefix: string;
  phoneLabel: string;
  phoneRequired: boolean;
}) {
  return (
    <>
      <div className="field">
        <label htmlFor={`${prefix}-name`}>Full name</label>
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
        <label htmlFor={`${prefix}-email`}>Email</label>
        <input
          id={`${prefix}-email`}
          name="email"
          type="email"
          autoComplete="email"
          required
          pattern={EMAIL_PATTERN}
          maxLength={LIMITS.email}
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
