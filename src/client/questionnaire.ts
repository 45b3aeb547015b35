import { langOfPath } from '../i18n/lang.js';
import { sourceOf } from '../lead/attribution.js';
import { LEAD_CURRENCY } from '../lead/lead-values.js';
import { POSTAL_CODE } from '../lead/postal-code.js';
import { shortReference } from '../lead/reference.js';
import { EMAIL } from '../lead/rules.js';
import { LEAD_PAGES, links } from '../urls.js';
import { setUserData, track } from './analytics.js';
import { leadTouches } from './attribution.js';
import { storedChoice } from './consent.js';
import { initEmailCheck } from './email-check.js';
import { failureFor, postJson, submissionId } from './post.js';
import { type FormCheck, initTurnstile } from './turnstile.js';

const STEPS = 3;

type Fields = HTMLFormControlsCollection &
  Record<string, RadioNodeList | HTMLInputElement | HTMLTextAreaElement | HTMLSelectElement>;

const value = (form: HTMLFormElement, name: string) => {
  const el = (form.elements as Fields)[name];
  return el && 'value' in el ? String(el.value).trim() : '';
};
const checked = (form: HTMLFormElement, name: string) =>
  Array.from(
    form.querySelectorAll<HTMLInputElement>(`input[name="${name}"]:checked`),
    (i) => i.value,
  );

/** Each step's answers, in the order the form asks them. */
const STEP_FIELDS = [
  ['claimType', 'damageTypes'],
  ['estimatedValue', 'damageDescription'],
  // The postal code is optional, but when given it must be one.
  ['fullName', 'email', 'phone', 'address', 'postalCode', 'preferredContact'],
];

const answered = (form: HTMLFormElement, name: string) => {
  const v = value(form, name);
  if (name === 'damageTypes') return checked(form, name).length > 0;
  if (name === 'email') return EMAIL.test(v);
  if (name === 'postalCode') return v === '' || POSTAL_CODE.test(v);
  return v !== '';
};

/** The first answer a step still needs (its field's name), or '' once the step is complete. */
const missingField = (form: HTMLFormElement, step: number): string =>
  STEP_FIELDS[step - 1]?.find((n) => !answered(form, n)) ?? '';

/**
 * Next or Submit pressed on an incomplete step: the form says which answer is missing (its
 * question, in the form's alert, read out by screen readers) and moves focus to it.
 */
function showMissing(form: HTMLFormElement, name: string, error: HTMLElement | null) {
  const field = form.querySelector<HTMLInputElement>(`[name="${name}"]`);
  if (!field) return;
  const question = field.closest('fieldset')?.querySelector('legend') ?? field.labels?.[0];
  if (error)
    error.textContent = (form.dataset.textMissing ?? '').replace(
      '{field}',
      question?.textContent?.trim() ?? '',
    );
  field.focus();
}

const consents = () => {
  const c = document.documentElement.dataset.ga ? storedChoice() : null;
  const state = (granted: boolean) => (granted ? 'granted' : 'denied');
  return c ? { analyticsConsent: state(c.analytics), advertisingConsent: state(c.ads) } : {};
};

/**
 * What every form sends besides its fields: where the visitor came from, how long the page had
 * been open (the time trap), and Turnstile's token where the site uses it.
 */
const story = (form: HTMLFormElement) => ({
  ...leadTouches(),
  // The choices by purpose, on a site that asks for them: whether a conversion may be uploaded.
  ...consents(),
  elapsedMs: Math.round(performance.now()),
  turnstileToken: value(form, 'cf-turnstile-response') || undefined,
});

/**
 * GA4's form_start on the first answer, and generate_lead once the lead is received, with the
 * submission's id as transaction_id and the lead's value by its loss range (<html data-values>)
 * in CAD; with Advertising accepted, the visitor's e-mail and phone for enhanced conversions
 * first. Sent once, before the confirmation page: a reload of that page counts nothing; `then`
 * goes on when it is sent. Nothing without consent.
 */
function measure(form: HTMLFormElement) {
  const name = value(form, 'form');
  let started = false;
  const start = () => {
    if (started) return;
    started = true;
    track('form_start', { form_id: form.id, form_name: name, form_destination: form.action });
  };
  form.addEventListener('input', start);
  form.addEventListener('change', start);
  return (id: string, city: string, then?: () => void) => {
    const values = JSON.parse(document.documentElement.dataset.values ?? '{}');
    const worth = values[value(form, 'estimatedValue')];
    setUserData(value(form, 'email'), value(form, 'phone'));
    track(
      'generate_lead',
      {
        transaction_id: id,
        form_name: name,
        lead_source: sourceOf(leadTouches().attribution),
        ...(city ? { city } : {}),
        ...(typeof worth === 'number' ? { value: worth, currency: LEAD_CURRENCY } : {}),
      },
      then,
    );
  };
}

/** Sends a form's answers once its bot check (if any) is ready; a failed send renews it. */
async function send(form: HTMLFormElement, check: FormCheck, body: Record<string, unknown>) {
  await check.ready();
  const status = await postJson(form.action, { ...body, ...story(form) });
  if (status < 200 || status >= 300) check.reset();
  return status;
}

function payload(form: HTMLFormElement) {
  return {
    form: value(form, 'form'),
    city: value(form, 'city'),
    province: value(form, 'province') || undefined,
    page: value(form, 'page'),
    consentText: value(form, 'consentText'),
    consentVersion: value(form, 'consentVersion') || undefined,
    submissionId: value(form, 'submissionId'),
    website: value(form, 'website'),
    claimType: value(form, 'claimType'),
    damageTypes: checked(form, 'damageTypes'),
    estimatedValue: value(form, 'estimatedValue'),
    hasStartedClaim: checked(form, 'hasStartedClaim').length > 0,
    damageDescription: value(form, 'damageDescription'),
    fullName: value(form, 'fullName'),
    email: value(form, 'email'),
    phone: value(form, 'phone'),
    address: value(form, 'address'),
    propertyCity: value(form, 'propertyCity'),
    postalCode: value(form, 'postalCode'),
    preferredContact: value(form, 'preferredContact'),
  };
}

/** The questionnaire's steps, its buttons and where it speaks, as the page renders them. */
function partsOf(form: HTMLFormElement) {
  return {
    steps: Array.from(form.querySelectorAll<HTMLElement>('[data-step]')),
    back: form.querySelector<HTMLButtonElement>('[data-back]'),
    next: form.querySelector<HTMLButtonElement>('[data-next]'),
    submit: form.querySelector<HTMLButtonElement>('[data-submit]'),
    status: form.querySelector<HTMLElement>('[data-step-status]'),
    error: form.querySelector<HTMLElement>('[data-form-error]'),
    idField: form.querySelector<HTMLInputElement>('[data-submission-id]'),
  };
}

/** Turns the server-rendered form (all steps visible) into the three-step questionnaire. */
export function initQuestionnaire(form: HTMLFormElement): void {
  const { steps, back, next, submit, status, error, idField } = partsOf(form);
  if (steps.length !== STEPS || !back || !next || !submit) return;
  if (idField) idField.value = submissionId();
  const check = initTurnstile(form);
  const received = measure(form);
  initEmailCheck(form);
  form.noValidate = true;
  form.classList.add('is-stepped');
  let current = 1;
  let sending = false;

  // Next and Submit stay enabled: pressed too early, they say what is missing.
  const update = () => {
    back.hidden = current === 1;
    next.hidden = current === STEPS;
    submit.hidden = current !== STEPS;
    submit.disabled = sending;
  };
  /** Moves on from a complete step, or says what it still needs: true when it may go on. */
  const ready = () => {
    const missing = missingField(form, current);
    if (missing) showMissing(form, missing, error);
    return !missing;
  };
  const show = (step: number, focus: boolean) => {
    current = step;
    if (error) error.textContent = '';
    steps.forEach((s, i) => {
      s.classList.toggle('is-current', i + 1 === step);
    });
    if (status)
      status.textContent = (form.dataset.textStep ?? '')
        .replace('{n}', String(step))
        .replace('{total}', String(STEPS));
    update();
    if (focus) steps[step - 1]?.querySelector<HTMLElement>('.form-step-title')?.focus();
  };

  next.addEventListener('click', () => {
    if (ready()) show(current + 1, true);
  });
  back.addEventListener('click', () => show(current - 1, true));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    // Enter in a field of an earlier step moves on instead of submitting.
    if (sending) return;
    if (current < STEPS) {
      if (ready()) show(current + 1, true);
      return;
    }
    if (!ready()) return;
    sending = true;
    form.setAttribute('aria-busy', 'true');
    if (error) error.textContent = '';
    update();
    const status = await send(form, check, payload(form));
    if (status >= 200 && status < 300) {
      confirm(form, received);
      return;
    }
    sending = false;
    form.removeAttribute('aria-busy');
    if (error) error.textContent = failureFor(status, form);
    update();
  });
  show(1, false);
}

/**
 * The confirmation in the page's language, under the site's folder (the page names it), once
 * GA4 has the lead (or has had its time).
 */
function confirm(form: HTMLFormElement, received: ReturnType<typeof measure>): void {
  const confirmation =
    form.dataset.confirmation ?? LEAD_PAGES[langOfPath(location.pathname)].confirmation;
  const city = value(form, 'city');
  const id = value(form, 'submissionId');
  const query = { city, ref: shortReference(id), damage: checked(form, 'damageTypes').join() };
  received(id, city, () => location.assign(links.withQuery(confirmation, query)));
}

/** The contact page's message form: sent through the same endpoint, answered in place. */
export function initContactForm(form: HTMLFormElement): void {
  const error = form.querySelector<HTMLElement>('[data-form-error]');
  const done = form.querySelector<HTMLElement>('[data-form-done]');
  const idField = form.querySelector<HTMLInputElement>('[data-submission-id]');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (idField) idField.value = submissionId();
  const check = initTurnstile(form);
  const received = measure(form);
  initEmailCheck(form);
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!form.reportValidity() || button?.disabled) return;
    if (button) button.disabled = true;
    if (error) error.textContent = '';
    const { 'cf-turnstile-response': _token, ...data } = Object.fromEntries(new FormData(form));
    const status = await send(form, check, data);
    if (button) button.disabled = false;
    if (status >= 200 && status < 300) {
      received(value(form, 'submissionId'), '');
      form.reset();
      if (idField) idField.value = submissionId();
      if (done) done.textContent = form.dataset.textSent ?? '';
    } else if (error) {
      error.textContent = failureFor(status, form);
    }
  });
}
