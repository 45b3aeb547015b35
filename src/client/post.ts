/**
 * POSTs JSON to the lead endpoint: the answer's status, or 0 for none within the time limit.
 * The endpoint answers within 8 s whatever the CRM does; 15 s leaves room for a slow network.
 */
export async function postJson(url: string, body: unknown, timeoutMs = 15000): Promise<number> {
  const ctrl = new AbortController();
  const timer = setTimeout(() => ctrl.abort(), timeoutMs);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' },
      body: JSON.stringify(body),
      signal: ctrl.signal,
      credentials: 'same-origin',
    });
    return res.status;
  } catch {
    return 0;
  } finally {
    clearTimeout(timer);
  }
}

/** One id per form, made in the browser, so a retried or doubled submission is recognised. */
export function submissionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  const b = crypto.getRandomValues(new Uint8Array(16));
  return Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
}

/**
 * The failure message for an answer's status, in the page's language (the form's
 * `data-text-failed` and `data-text-busy`, from the catalogue): it names the phone number and
 * promises the answers are kept; too many requests from one visitor says to wait.
 */
export const failureFor = (status: number, form: HTMLElement) =>
  (status === 429 ? form.dataset.textBusy : form.dataset.textFailed)?.replace(
    '{phone}',
    form.dataset.phone ?? '',
  ) ?? '';
