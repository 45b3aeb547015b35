import type { Log } from './log.js';
import type { AlertClaim, LeadStore } from './store.js';

/**
 * What the owner is told of: a lead waiting too long, one the CRM refused, a refused token, dead
 * letters about to be deleted, the store nearing or at its cap of waiting leads, and the store
 * failing (store-failure.ts): its files removed or damaged, its disk full, read-only, or its
 * server unreachable.
 */
export type AlertCondition =
  | 'waiting'
  | 'dead-letter'
  | 'auth'
  | 'expiring'
  | 'full'
  | 'store-missing'
  | 'store-corrupt'
  | 'disk-full'
  | 'read-only'
  | 'store-down';

export type Alert = (condition: AlertCondition, text: string) => Promise<void>;

/** An alert of the same condition is sent at most this often. */
const ALERT_EVERY_MS = 60 * 60_000;

/**
 * Alerts to LEAD_ALERT_WEBHOOK: a JSON POST with the message in `text`, the field Slack and
 * Microsoft Teams incoming webhooks read (and in `content`, Discord's). At most one per condition
 * an hour, across every process and instance using the store: the condition is taken in the
 * store before it is sent, the time read and written in one transaction (claimAlert), so that of
 * many asking at once (concurrent leads refused with the same 401) one only sends it. Within a
 * process a guard of its own comes first, set before anything is awaited; where the store itself
 * is broken and cannot take the claim, that guard alone decides: one alert an hour from each
 * process. An alert that could not be sent is given back, and tried again the next time its
 * condition holds. The text names a submission by its id and city only, never the person.
 */
export function createAlerts(
  webhook: string | undefined,
  store: LeadStore,
  log: Log,
  send: typeof fetch = fetch,
): Alert {
  const sentHere = new Map<AlertCondition, number>();
  return async (condition, text) => {
    if (!webhook) return;
    const now = Date.now();
    if (now - (sentHere.get(condition) ?? Number.NEGATIVE_INFINITY) < ALERT_EVERY_MS) return;
    sentHere.set(condition, now);
    let claim: AlertClaim | null | 'store broken';
    try {
      claim = await store.claimAlert(condition, ALERT_EVERY_MS);
    } catch {
      claim = 'store broken';
    }
    if (claim === null) {
      // Another process sent it within the hour: the store says when it may be sent again.
      sentHere.delete(condition);
      return;
    }
    try {
      const res = await send(webhook, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text, content: text }),
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) throw new Error(`the webhook answered HTTP ${res.status}`);
      log('alert sent', { condition, ...(claim === 'store broken' ? { guard: 'process' } : {}) });
    } catch (err) {
      sentHere.delete(condition);
      if (claim !== 'store broken') await store.releaseAlert(claim).catch(() => {});
      log('alert failed', { condition, error: (err as Error).message });
    }
  };
}
