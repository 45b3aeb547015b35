import type { ReactNode } from 'react';
import {
  DAMAGE_TYPES,
  ESTIMATED_VALUE_LABELS,
  ESTIMATED_VALUES,
  LIMITS,
  label,
} from '../../src/lead/rules.js';
import { Shared } from '../../src/render/fragments.js';
import { links } from '../../src/urls.js';
import { Honeypot, PersonFields } from './FormFields.js';

function Step({ n, title, children }: { n: number; title: string; children: ReactNode }) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a step holds fieldsets of its own, and its title is a heading that takes focus
    <div className="form-step" data-step={n} role="group" aria-labelledby={`q-step${n}`}>
      <h3 id={`q-step${n}`} className="form-step-title" tabIndex={-1}>
        <span className="form-step-count">Step {n} of 3</span> {title}
      </h3>
      {children}
    </div>
  );
}

function Choice({
  type,
  name,
  value,
  label,
  required,
  checked,
}: {
  type: 'radio' | 'checkbox';
  name: string;
  value: string;
  label: string;
  required?: boolean;
  checked?: boolean;
}) {
  return (
    <label className="choice">
      <input type={type} name={name} value={value} required={required} defaultChecked={checked} />{' '}
      <span>{label}</span>
    </label>
  );
}

/** What a claim-type page's form starts with: its property or damage type already chosen. */
export interface Preset {
  claimType?: 'residential' | 'commercial';
  damage?: (typeof DAMAGE_TYPES)[number];
}

/**
 * The three-step claim questionnaire. Server-rendered as a real form that posts
 * to the lead endpoint with every step visible; the browser script turns it into steps.
 */
export function Questionnaire({
  title,
  intro,
  endpoint,
  cityName,
  pagePath,
  kind = 'questionnaire',
  phone,
  preset = NO_PRESET,
  note,
}: {
  title: string;
  intro?: string;
  endpoint: string;
  cityName: string;
  pagePath: string;
  kind?: 'questionnaire' | 'assessment';
  /** Named in the failure message. */
  phone: string;
  preset?: Preset;
  /** The line under the buttons, instead of the standard one (Québec's pages: no fee promise). */
  note?: string;
}) {
  return (
    <form
      id={links.claimFormId}
      className="questionnaire"
      method="post"
      action={endpoint}
      data-questionnaire=""
      data-phone={phone}
      aria-labelledby="q-title"
    >
      <h2 id="q-title" className="form-title">
        {title}
      </h2>
      {intro && <p className="form-intro">{intro}</p>}
      <p className="visually-hidden" data-step-status="" aria-live="polite" />
      <input type="hidden" name="form" value={kind} />
      <input type="hidden" name="city" value={cityName} />
      <input type="hidden" name="page" value={pagePath} />
      <input type="hidden" name="submissionId" value="" data-submission-id="" />
      <Shared component={QuestionnaireBody} props={{ ...preset, note }} />
    </form>
  );
}

const NO_PRESET: Preset = {};

/** Everything in the form but its page's hidden fields: rendered once per preset. */
function QuestionnaireBody({ claimType, damage, note }: Preset & { note?: string | undefined }) {
  return (
    <>
      <Honeypot />

      <Step n={1} title="Your Claim">
        <fieldset>
          <legend>Type of property</legend>
          <div className="choices choices-2">
            <Choice
              type="radio"
              name="claimType"
              value="residential"
              label="Residential"
              required
              checked={claimType === 'residential'}
            />
            <Choice
              type="radio"
              name="claimType"
              value="commercial"
              label="Commercial"
              required
              checked={claimType === 'commercial'}
            />
          </div>
        </fieldset>
        <fieldset>
          <legend>Type of damage (choose all that apply)</legend>
          <div className="choices choices-3">
            {DAMAGE_TYPES.map((d) => (
              <Choice
                key={d}
                type="checkbox"
                name="damageTypes"
                value={d}
                label={label(d)}
                checked={damage === d}
              />
            ))}
          </div>
        </fieldset>
      </Step>

      <Step n={2} title="Incident Details">
        <div className="field">
          <label htmlFor="q-value">Estimated value of the damage</label>
          <select id="q-value" name="estimatedValue" required defaultValue="">
            <option value="" disabled>
              Choose a range
            </option>
            {ESTIMATED_VALUES.map((v) => (
              <option key={v} value={v}>
                {ESTIMATED_VALUE_LABELS[v]}
              </option>
            ))}
          </select>
        </div>
        <label className="choice">
          <input type="checkbox" name="hasStartedClaim" value="true" />{' '}
          <span>I have already started a claim with my insurer</span>
        </label>
        <div className="field">
          <label htmlFor="q-description">What happened?</label>
          <textarea
            id="q-description"
            name="damageDescription"
            rows={4}
            required
            maxLength={LIMITS.text}
          />
        </div>
      </Step>

      <Step n={3} title="Contact Details">
        <PersonFields prefix="q" phoneLabel="Phone" phoneRequired />
        <div className="field">
          <label htmlFor="q-address">Property address</label>
          <input
            id="q-address"
            name="address"
            type="text"
            autoComplete="address-line1"
            required
            maxLength={LIMITS.address}
          />
        </div>
        <fieldset>
          <legend>How should we contact you?</legend>
          <div className="choices choices-3">
            <Choice type="radio" name="preferredContact" value="phone" label="Phone" required />
            <Choice type="radio" name="preferredContact" value="email" label="Email" required />
            <Choice type="radio" name="preferredContact" value="both" label="Both" required />
          </div>
        </fieldset>
      </Step>

      <div className="form-error" role="alert" data-form-error="" />
      <div className="form-nav">
        <button type="button" className="button button-outline" data-back="" hidden>
          Back
        </button>
        <button type="button" className="button button-primary" data-next="" hidden>
          Next
        </button>
        <button type="submit" className="button button-accent" data-submit="">
          Submit Claim
        </button>
      </div>
      <p className="form-note">
        {note ?? 'Free and confidential. No upfront fees. We respond within 24 hours.'}
      </p>
      <p className="form-note form-consent">
        By sending this form, you agree that we share your answers with a licensed adjuster who
        serves your area, so that they can contact you and assess your claim. See our{' '}
        <a href={links.page('privacy')}>Privacy Policy</a>.
      </p>
    </>
  );
}
