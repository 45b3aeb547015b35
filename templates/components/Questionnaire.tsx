import type { ReactNode } from 'react';
import { fill, fillParts, type Strings } from '../../src/i18n/catalogue.js';
import { langOfPath } from '../../src/i18n/lang.js';
import { consentVersion } from '../../src/lead/consent-wording.js';
import { POSTAL_CODE } from '../../src/lead/postal-code.js';
import { DAMAGE_TYPES, LIMITS, VALUE_ANSWERS } from '../../src/lead/rules.js';
import { Shared } from '../../src/render/fragments.js';
import type { Links } from '../../src/urls.js';
import { Honeypot, PersonFields, TurnstileSlot } from './FormFields.js';

/** The questionnaire's steps: the count each step's title shows. */
const STEPS = 3;

function Step({
  n,
  title,
  t,
  children,
}: {
  n: number;
  title: string;
  t: Strings;
  children: ReactNode;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a step holds fieldsets of its own, and its title is a heading that takes focus
    <div className="form-step" data-step={n} role="group" aria-labelledby={`q-step${n}`}>
      <h3 id={`q-step${n}`} className="form-step-title" tabIndex={-1}>
        <span className="form-step-count">
          {fill(t.questionnaire.stepCount, { n, total: STEPS })}
        </span>{' '}
        {title}
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

type DamageType = (typeof DAMAGE_TYPES)[number];
type EstimatedValue = (typeof VALUE_ANSWERS)[number];

/** The labels of the posted values (which stay English: the lead endpoint and the CRM read them). */
const damageLabels = (t: Strings): Record<DamageType, string> => ({
  fire: t.questionnaire.damageFire,
  water: t.questionnaire.damageWater,
  wind: t.questionnaire.damageWind,
  storm: t.questionnaire.damageStorm,
  theft: t.questionnaire.damageTheft,
  other: t.questionnaire.damageOther,
});

const valueLabels = (t: Strings): Record<EstimatedValue, string> => ({
  '50k_100k': t.questionnaire.value50kTo100k,
  '100k_250k': t.questionnaire.value100kTo250k,
  '250k_500k': t.questionnaire.value250kTo500k,
  '500k_1m': t.questionnaire.value500kTo1m,
  over_1m: t.questionnaire.valueOver1m,
  not_sure: t.questionnaire.valueNotSure,
});

/** What a claim-type page's form starts with: its property or damage type already chosen. */
export interface Preset {
  claimType?: 'residential' | 'commercial';
  damage?: DamageType;
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
  province,
  pagePath,
  kind = 'questionnaire',
  phone,
  tel,
  preset = NO_PRESET,
  note,
  t,
  links,
}: {
  title: string;
  intro?: string;
  endpoint: string;
  cityName: string;
  /** The city's province or territory code, sent for the CRM's `state`. */
  province?: string | null | undefined;
  pagePath: string;
  kind?: 'questionnaire' | 'assessment';
  /** Named in the failure message and the line for smaller losses, as the page's language writes it. */
  phone: string;
  /** The call link of that number (links.tel). */
  tel: string;
  preset?: Preset;
  /** The line under the buttons, instead of the standard one (Québec's pages: no fee promise). */
  note?: string;
  t: Strings;
  links: Links;
}) {
  return (
    <form
      id={links.claimFormId}
      className="questionnaire"
      method="post"
      action={links.href(endpoint)}
      data-questionnaire=""
      // Where the script sends the visitor once the lead is taken, in the page's language.
      data-confirmation={links.page('confirmation')}
      data-phone={phone}
      // The script's words, in the page's language: it carries none of its own.
      data-text-step={t.questionnaire.stepCount}
      data-text-failed={t.client.failed}
      data-text-busy={t.client.busy}
      data-text-missing={t.client.missing}
      aria-labelledby="q-title"
    >
      <h2 id="q-title" className="form-title">
        {title}
      </h2>
      {intro && <p className="form-intro">{intro}</p>}
      <p className="visually-hidden" data-step-status="" aria-live="polite" />
      <input type="hidden" name="form" value={kind} />
      <input type="hidden" name="city" value={cityName} />
      {province && <input type="hidden" name="province" value={province} />}
      <input type="hidden" name="page" value={pagePath} />
      <input type="hidden" name="submissionId" value="" data-submission-id="" />
      <Shared
        component={QuestionnaireBody}
        props={{ ...preset, note, phone, tel, t, links, lang: langOfPath(pagePath) }}
      />
    </form>
  );
}

const NO_PRESET: Preset = {};

/** POSTAL_CODE for the pattern attribute, which has no flags: each letter in either case. */
const POSTAL_PATTERN = POSTAL_CODE.source
  .slice(1, -1)
  .replace(/\[([^\]]+)\]/g, (_, letters: string) => `[${letters}${letters.toLowerCase()}]`);

/** The property's city and postal code, for the CRM's address: sent only when the visitor gives them. */
function PropertyPlace({ t }: { t: Strings }) {
  const q = t.questionnaire;
  return (
    <div className="field-row">
      <div className="field">
        <label htmlFor="q-property-city">{q.propertyCity}</label>
        <input
          id="q-property-city"
          name="propertyCity"
          type="text"
          autoComplete="address-level2"
          maxLength={LIMITS.city}
        />
      </div>
      <div className="field">
        <label htmlFor="q-postal-code">{q.postalCode}</label>
        <input
          id="q-postal-code"
          name="postalCode"
          type="text"
          autoComplete="postal-code"
          maxLength={7}
          pattern={POSTAL_PATTERN}
          size={8}
        />
      </div>
    </div>
  );
}

/** Step 1: the property and what damaged it. */
function PropertyStep({ claimType, damage, t }: Preset & { t: Strings }) {
  const q = t.questionnaire;
  const damages = damageLabels(t);
  return (
    <Step n={1} title={q.step1} t={t}>
      <fieldset>
        <legend>{q.propertyType}</legend>
        <div className="choices choices-2">
          <Choice
            type="radio"
            name="claimType"
            value="residential"
            label={q.residential}
            required
            checked={claimType === 'residential'}
          />
          <Choice
            type="radio"
            name="claimType"
            value="commercial"
            label={q.commercial}
            required
            checked={claimType === 'commercial'}
          />
        </div>
      </fieldset>
      <fieldset>
        <legend>{q.damageType}</legend>
        <div className="choices choices-3">
          {DAMAGE_TYPES.map((d) => (
            <Choice
              key={d}
              type="checkbox"
              name="damageTypes"
              value={d}
              label={damages[d]}
              checked={damage === d}
            />
          ))}
        </div>
      </fieldset>
    </Step>
  );
}

/** Step 2: what the loss is worth, whether a claim is started, and what happened. */
function DamageStep({ phone, tel, t }: { phone: string; tel: string; t: Strings }) {
  const q = t.questionnaire;
  const values = valueLabels(t);
  return (
    <Step n={2} title={q.step2} t={t}>
      <div className="field">
        <label htmlFor="q-value">{q.estimatedValue}</label>
        <select
          id="q-value"
          name="estimatedValue"
          required
          defaultValue=""
          aria-describedby="q-value-below"
        >
          <option value="" disabled>
            {q.chooseRange}
          </option>
          {/* The five ranges, then "I'm not sure yet": the night of the damage nobody knows. */}
          {VALUE_ANSWERS.map((v) => (
            <option key={v} value={v}>
              {values[v]}
            </option>
          ))}
        </select>
        {/* The spec's ranges start at $50,000: a smaller loss gets an honest word, not a wrong range. */}
        <p id="q-value-below" className="field-hint">
          {fillParts(q.valueBelow, {
            phone: (
              <a key="phone" className="phone" href={tel}>
                {phone}
              </a>
            ),
          })}
        </p>
      </div>
      <label className="choice">
        <input type="checkbox" name="hasStartedClaim" value="true" /> <span>{q.startedClaim}</span>
      </label>
      <div className="field">
        <label htmlFor="q-description">{q.description}</label>
        <textarea
          id="q-description"
          name="damageDescription"
          rows={4}
          required
          maxLength={LIMITS.text}
        />
      </div>
    </Step>
  );
}

/** Step 3: who the visitor is, where the property is, and how to reach them. */
function ContactStep({ t }: { t: Strings }) {
  const q = t.questionnaire;
  return (
    <Step n={3} title={q.step3} t={t}>
      <PersonFields prefix="q" phoneLabel={q.phone} phoneRequired t={t} />
      <div className="field">
        <label htmlFor="q-address">{q.address}</label>
        <input
          id="q-address"
          name="address"
          type="text"
          autoComplete="address-line1"
          required
          maxLength={LIMITS.address}
        />
      </div>
      <PropertyPlace t={t} />
      <fieldset>
        <legend>{q.preferredContact}</legend>
        <div className="choices choices-3">
          <Choice type="radio" name="preferredContact" value="phone" label={q.phone} required />
          <Choice
            type="radio"
            name="preferredContact"
            value="email"
            label={t.formFields.email}
            required
          />
          <Choice
            type="radio"
            name="preferredContact"
            value="both"
            label={q.contactBoth}
            required
          />
        </div>
      </fieldset>
      <TurnstileSlot />
    </Step>
  );
}

/** Everything in the form but its page's hidden fields: rendered once per preset. */
function QuestionnaireBody({
  claimType,
  damage,
  note,
  phone,
  tel,
  t,
  links,
  lang,
}: Preset & {
  note?: string | undefined;
  phone: string;
  tel: string;
  t: Strings;
  links: Links;
  lang: string;
}) {
  const q = t.questionnaire;
  // The consent line as the visitor reads it, sent with the form so the lead records it.
  const consent = fill(q.consent, { privacy: q.privacyLink });
  return (
    <>
      <Honeypot t={t} />

      <PropertyStep claimType={claimType} damage={damage} t={t} />

      <DamageStep phone={phone} tel={tel} t={t} />

      <ContactStep t={t} />

      <div className="form-error" role="alert" data-form-error="" />
      <div className="form-nav">
        <button type="button" className="button button-outline" data-back="" hidden>
          {q.back}
        </button>
        <button type="button" className="button button-primary" data-next="" hidden>
          {q.next}
        </button>
        <button type="submit" className="button button-accent" data-submit="">
          {q.submit}
        </button>
      </div>
      <p className="form-note">{note ?? q.note}</p>
      <input type="hidden" name="consentText" value={consent} />
      <input type="hidden" name="consentVersion" value={consentVersion(lang, consent)} />
      <p className="form-note form-consent">
        {fillParts(q.consent, {
          privacy: (
            <a key="privacy" href={links.page('privacy')}>
              {q.privacyLink}
            </a>
          ),
        })}
      </p>
    </>
  );
}
