import type { ReactNode } from 'react';
import { LIMITS } from '../../src/lead/rules.js';
import { Memo } from '../../src/render/fragments.js';
import { Honeypot, PersonFields } from './FormFields.js';

export const DAMAGE_TYPES = [
  { value: 'fire', label: 'Fire' },
  { value: 'water', label: 'Water' },
  { value: 'wind', label: 'Wind' },
  { value: 'storm', label: 'Storm' },
  { value: 'theft', label: 'Theft' },
  { value: 'other', label: 'Other' },
] as const;

export const ESTIMATED_VALUES = [
  { value: '50k_100k', label: '$50,000 - $100,000' },
  { value: '100k_250k', label: '$100,000 - $250,000' },
  { value: '250k_500k', label: '$250,000 - $500,000' },
  { value: '500k_1m', label: '$500,000 - $1,000,000' },
  { value: 'over_1m', label: 'Over $1,000,000' },
] as const;

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
}: {
  type: 'radio' | 'checkbox';
  name: string;
  value: string;
  label: string;
  required?: boolean;
}) {
  return (
    <label className="choice">
      <input type={type} name={name} value={value} required={required} /> <span>{label}</span>
    </label>
  );
}

/**
 * The three-step claim questionnaire (SPEC §4, §5). Server-rendered as a real form that posts
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
}: {
  title: string;
  intro?: string;
  endpoint: string;
  cityName: string;
  pagePath: string;
  kind?: 'questionnaire' | 'assessment';
  /** Named in the failure message. */
  phone: string;
}) {
  return (
    <form
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
      <Memo id="questionnaire-body">{() => <QuestionnaireBody />}</Memo>
    </form>
  );
}

/** Everything in the form that is the same on every page: rendered once per build. */
function QuestionnaireBody() {
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
            />
            <Choice type="radio" name="claimType" value="commercial" label="Commercial" required />
          </div>
        </fieldset>
        <fieldset>
          <legend>Type of damage (choose all that apply)</legend>
          <div className="choices choices-3">
            {DAMAGE_TYPES.map((d) => (
              <Choice
                key={d.value}
                type="checkbox"
                name="damageTypes"
                value={d.value}
                label={d.label}
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
              <option key={v.value} value={v.value}>
                {v.label}
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
        Free and confidential. No upfront fees. We respond within 24 hours.
      </p>
    </>
  );
}
