/**
 * What keeps bots out besides the honeypot: a time trap, and Cloudflare Turnstile where the
 * owner turned it on.
 */

/**
 * The time trap: the browser script sends how long the page had been open when the form was
 * sent (`elapsedMs`). Less than a person needs to read and fill a form is a bot's speed: such a
 * submission is answered as a success and dropped, so the bot learns nothing. A form posted
 * without the script sends no time and is not judged by it.
 */
export function tooFast(raw: unknown, minFillMs: number): boolean {
  if (typeof raw !== 'object' || raw === null || !('elapsedMs' in raw)) return false;
  const elapsed = Number((raw as { elapsedMs: unknown }).elapsedMs);
  return Number.isFinite(elapsed) && elapsed >= 0 && elapsed < minFillMs;
}

/** Cloudflare's documented address for checking a Turnstile token on the server. */
export const SITEVERIFY_URL = 'https://challenges.cloudflare.com/turnstile/v0/siteverify';

/** The token a submission carries: the script's field, or the widget's own in a form post. */
export function turnstileTokenOf(raw: unknown): string {
  const r = typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>) : {};
  const token = r.turnstileToken ?? r['cf-turnstile-response'];
  // Cloudflare documents tokens of at most 2048 characters.
  return typeof token === 'string' && token.length <= 2048 ? token : '';
}

interface TurnstileVerdict {
  ok: boolean;
  /** Cloudflare's error codes (or ours: missing-input-response, siteverify-unreachable). */
  codes: string[];
}

/**
 * Asks Cloudflare's siteverify whether a token is good (a POST of the secret, the token and the
 * visitor's address). No token, a refusal, and no answer within the time are all a no: a check
 * that cannot be made lets no bot through; the visitor is told to try again or call.
 */
export async function verifyTurnstile(
  secret: string,
  token: string,
  remoteIp: string | undefined,
  url = SITEVERIFY_URL,
  timeoutMs = 4000,
): Promise<TurnstileVerdict> {
  if (!token) return { ok: false, codes: ['missing-input-response'] };
  const form = new URLSearchParams({ secret, response: token });
  if (remoteIp && remoteIp !== 'unknown') form.set('remoteip', remoteIp);
  try {
    const res = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: form,
      signal: AbortSignal.timeout(timeoutMs),
    });
    const json = (await res.json()) as { success?: unknown; 'error-codes'?: unknown };
    const codes = Array.isArray(json['error-codes']) ? json['error-codes'].map(String) : [];
    return { ok: json.success === true, codes };
  } catch {
    return { ok: false, codes: ['siteverify-unreachable'] };
  }
}
