import type { Log } from './log.js';
import type { LeadStore } from './store.js';

/**
 * What the owner is told of: a lead waiting too long, one the CRM refused, a refused token, dead
 * letters about to be deleted, the store nearing or at its cap of waiting leads.
 */
export type AlertCondition = 'waiting' | 'dead-letter' | 'auth' | 'expiring' | 'full';

export type Alert = (condition: AlertCondition, text: string) => Promise<void>;

/** An alert of the same condition is sent at most this often. */
export const ALERT_EVERY_MS = 60 * 60_000;

/**
 * Alerts to LEAD_ALERT_WEBHOOK: a JSON POST with the message in `text`, the field Slack and
 * Microsoft Teams incoming webhooks read (and in `content`, Discord's). At most one per condition
 * an hour, across every process using the store (the times are kept in it). The text names a
 * submission by its id and city only, never the person.
 */
export function createAlerts(
  webhook: string | undefined,
  store: LeadStore,
  log: Log,
  send: typeof fetch = fetch,
): Alert {
  return async (condition, text) => {
    if (!webhook) return;
    try {
      const state = await store.alertState();
      const last = Date.parse(state[condition] ?? '');
      if (Date.now() - last < ALERT_EVERY_MS) return;
      const res = await send(webhook, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ text, content: text }),
        signal: AbortSignal.timeout(5000),
      });
      if (!res.ok) throw new Error(`the webhook answered HTTP ${res.status}`);
      await store.saveAlertState({
        ...(await store.alertState()),
        [condition]: new Date().toISOString(),
      });
      log('alert sent', { condition });
    } catch (err) {
      // An alert that could not be sent is tried again the next time its condition holds.
      log('alert failed', { condition, error: (err as Error).message });
    }
  };
}
