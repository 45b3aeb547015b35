import { EMAIL } from '../lead/rules.js';

/**
 * An e-mail field says what is wrong once it is left with an address the lead endpoint would
 * refuse (`jane@example`), rather than leaving Submit grey with no word why; the message goes as
 * soon as the address is right. The message's words are the page's (`data-email-error`).
 */
export function initEmailCheck(form: HTMLFormElement): void {
  const input = form.querySelector<HTMLInputElement>('input[type="email"][aria-describedby]');
  const id = input?.getAttribute('aria-describedby');
  const message = id ? form.querySelector<HTMLElement>(`#${CSS.escape(id)}`) : null;
  if (!input || !message) return;
  const wrong = () => input.value.trim() !== '' && !EMAIL.test(input.value.trim());
  const show = (on: boolean) => {
    if (on) input.setAttribute('aria-invalid', 'true');
    else input.removeAttribute('aria-invalid');
    const text = on ? (message.dataset.emailError ?? '') : '';
    if (message.textContent !== text) message.textContent = text;
  };
  input.addEventListener('blur', () => show(wrong()));
  // Once said, the message follows the typing, so that it leaves as the address becomes right.
  input.addEventListener('input', () => {
    if (input.hasAttribute('aria-invalid')) show(wrong());
  });
}
