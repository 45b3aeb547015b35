/** POSTs JSON to the lead endpoint; true only for a 2xx answer within the time limit. */
export async function postJson(url: string, body: unknown, timeoutMs = 15000): Promise<boolean> {
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
    return res.ok;
  } catch {
    return false;
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

/** The failure message: it names the phone number and promises the answers are kept. */
export const failureMessage = (phone: string) =>
  `Sorry, we could not send your request just now. Your answers are still here: please try again, or call us at ${phone}.`;
