import { langOfPath } from '../i18n/lang.js';
import { EMAIL } from '../lead/rules.js';
import { LEAD_PAGES, links } from '../urls.js';
import { failureFor, postJson, submissionId } from './post.js';

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

/** What makes each step complete: Next and Submit stay disabled until it is. */
export function stepComplete(form: HTMLFormElement, step: number): boolean {
  switch (step) {
    case 1:
      return value(form, 'claimType') !== '' && checked(form, 'damageTypes').length > 0;
    case 2:
      return value(form, 'estimatedValue') !== '' && value(form, 'damageDescription') !== '';
    default:
      return (
        ['fullName', 'email', 'phone', 'address', 'preferredContact'].every(
          (n) => value(form, n) !== '',
        ) && EMAIL.test(value(form, 'email'))
      );
  }
}

function payload(form: HTMLFormElement) {
  return {
    form: value(form, 'form'),
    city: value(form, 'city'),
    page: value(form, 'page'),
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
    preferredContact: value(form, 'preferredContact'),
  };
}

/** Turns the server-rendered form (all steps visible) into the three-step questionnaire. */
export function initQuestionnaire(form: HTMLFormElement): void {
  const steps = Array.from(form.querySelectorAll<HTMLElement>('[data-step]'));
  const back = form.querySelector<HTMLButtonElement>('[data-back]');
  const next = form.querySelector<HTMLButtonElement>('[data-next]');
  const submit = form.querySelector<HTMLButtonElement>('[data-submit]');
  const status = form.querySelector<HTMLElement>('[data-step-status]');
  const error = form.querySelector<HTMLElement>('[data-form-error]');
  const idField = form.querySelector<HTMLInputElement>('[data-submission-id]');
  if (steps.length !== STEPS || !back || !next || !submit) return;
  if (idField) idField.value = submissionId();
  form.noValidate = true;
  form.classList.add('is-stepped');
  let current = 1;
  let sending = false;

  const update = () => {
    const complete = stepComplete(form, current);
    back.hidden = current === 1;
    next.hidden = current === STEPS;
    submit.hidden = current !== STEPS;
    next.disabled = !complete;
    submit.disabled = !complete || sending;
  };
  const show = (step: number, focus: boolean) => {
    current = step;
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

  form.addEventListener('input', update);
  form.addEventListener('change', update);
  next.addEventListener('click', () => {
    if (stepComplete(form, current)) show(current + 1, true);
  });
  back.addEventListener('click', () => show(current - 1, true));
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    // Enter in a field of an earlier step moves on instead of submitting.
    if (current < STEPS) {
      if (stepComplete(form, current)) show(current + 1, true);
      return;
    }
    if (!stepComplete(form, STEPS) || sending) return;
    sending = true;
    form.setAttribute('aria-busy', 'true');
    if (error) error.textContent = '';
    update();
    const status = await postJson(form.action, payload(form));
    sending = false;
    form.removeAttribute('aria-busy');
    if (status >= 200 && status < 300) {
      // The confirmation in the page's language, under the site's folder: the page names it.
      const confirmation =
        form.dataset.confirmation ?? LEAD_PAGES[langOfPath(location.pathname)].confirmation;
      location.assign(links.withQuery(confirmation, { city: value(form, 'city') }));
      return;
    }
    if (error) error.textContent = failureFor(status, form);
    update();
  });
  show(1, false);
}

/** The contact page's message form: sent through the same endpoint, answered in place. */
export function initContactForm(form: HTMLFormElement): void {
  const error = form.querySelector<HTMLElement>('[data-form-error]');
  const done = form.querySelector<HTMLElement>('[data-form-done]');
  const idField = form.querySelector<HTMLInputElement>('[data-submission-id]');
  const button = form.querySelector<HTMLButtonElement>('button[type="submit"]');
  if (idField) idField.value = submissionId();
  form.addEventListener('submit', async (e) => {
    e.preventDefault();
    if (!form.reportValidity() || button?.disabled) return;
    if (button) button.disabled = true;
    if (error) error.textContent = '';
    const data = Object.fromEntries(new FormData(form));
    const status = await postJson(form.action, data);
    if (button) button.disabled = false;
    if (status >= 200 && status < 300) {
      form.reset();
      if (idField) idField.value = submissionId();
      if (done) done.textContent = form.dataset.textSent ?? '';
    } else if (error) {
      error.textContent = failureFor(status, form);
    }
  });
}
