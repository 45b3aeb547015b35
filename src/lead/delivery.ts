import type { Alert } from './alerts.js';
import { type CrmClient, DeliveryError } from './crm.js';
import type { Log } from './log.js';
import type { Lead } from './schema.js';
import { firstWait, type LeadStore, type WaitingLead } from './store.js';

/** Everything that delivers leads, wherever it runs: the endpoint, a drain, a scheduled function. */
export interface Deliverer {
  store: LeadStore;
  /** Absent while no CRM token is set: every lead waits. */
  crm?: CrmClient;
  alert: Alert;
  log: Log;
  /** The least time between two attempts of a waiting lead; it doubles after each, to an hour. */
  retryIntervalMs: number;
  /** A lead waiting longer than this is told to the owner. */
  alertAfterMs: number;
}

export type Outcome = 'delivered' | 'queued';

/** A drain stops trying after this many leads in a row could not be delivered for now. */
const GIVE_UP_AFTER = 3;

const NO_TOKEN = 'no CRM token configured';

/**
 * Delivers a submitted lead by `deadline`; whatever is not delivered by then waits in the store,
 * with what the attempt achieved. A submission already delivered, or already waiting, is not
 * sent again.
 */
export async function deliverOrKeep(d: Deliverer, lead: Lead, deadline: number): Promise<Outcome> {
  const id = lead.submissionId;
  if (await d.store.isDelivered(id)) return 'delivered';
  if (await d.store.isWaiting(id)) return 'queued';
  if (!d.crm) {
    await d.store.keep(firstWait(lead, NO_TOKEN));
    d.log('lead queued', { submissionId: id, reason: NO_TOKEN });
    return 'queued';
  }
  try {
    const { contactId } = await d.crm.deliver(lead, { deadline });
    await d.store.delivered(id, contactId);
    d.log('lead delivered', { submissionId: id, contactId });
    return 'delivered';
  } catch (err) {
    if (!(err instanceof DeliveryError)) throw err;
    const entry = firstWait(lead, err.message, {
      ...err.progress,
      retryAt: Date.now() + (err.crm.retryAfterMs ?? 0),
    });
    await failed(d, entry, err);
    return 'queued';
  }
}

export interface DrainResult {
  delivered: number;
  /** Still waiting: not due yet, or tried again and not delivered. */
  waiting: number;
  /** Moved to the dead letters in this drain. */
  dead: number;
  /** Another drain of the same store was under way (only when not waiting for it). */
  busy: boolean;
}

/**
 * One pass over the waiting leads, oldest first: each one that is due (every one, with `all`)
 * is tried again; one the CRM refuses for good becomes a dead letter. One drain of a store at a
 * time: with `all` (`claimsite leads retry`) it waits for another to end, on a schedule it lets
 * it be. It stops starting deliveries by `until`. Then the owner is told if a lead has waited
 * too long.
 */
export async function drain(
  d: Deliverer,
  options: { all?: boolean; until?: number } = {},
): Promise<DrainResult> {
  const until = options.until ?? Number.POSITIVE_INFINITY;
  const result = await d.store.exclusive(
    async () => {
      const r: DrainResult = { delivered: 0, waiting: 0, dead: 0, busy: false };
      const entries = await d.store.waiting();
      let stop = false;
      let failing = 0;
      for (const entry of entries) {
        const now = Date.now();
        if (
          stop ||
          !d.crm ||
          now >= until - 1000 ||
          (!options.all && Date.parse(entry.nextAttemptAt) > now)
        ) {
          r.waiting++;
          continue;
        }
        try {
          const { contactId } = await d.crm.deliver(entry.lead, {
            deadline: Math.min(now + 15_000, until),
            progress: { contactId: entry.contactId, noteMayExist: entry.noteMayExist },
          });
          await d.store.delivered(entry.submissionId, contactId);
          d.log('lead delivered', { submissionId: entry.submissionId, contactId, from: 'outbox' });
          r.delivered++;
          failing = 0;
        } catch (err) {
          if (!(err instanceof DeliveryError)) throw err;
          const attempts = entry.attempts + 1;
          const next: WaitingLead = {
            ...entry,
            ...err.progress,
            attempts,
            reason: err.message,
            nextAttemptAt: new Date(
              Date.now() +
                Math.max(err.crm.retryAfterMs ?? 0, backoff(d.retryIntervalMs, attempts)),
            ).toISOString(),
          };
          if ((await failed(d, next, err)) === 'dead') r.dead++;
          else r.waiting++;
          // The token is refused, or the CRM keeps failing: the other leads would fare no
          // better now, and each would spend its seconds of retries finding that out.
          if (err.crm.kind === 'transient') failing++;
          if (err.crm.kind === 'auth' || failing >= GIVE_UP_AFTER) stop = true;
        }
      }
      return r;
    },
    { wait: Boolean(options.all) },
  );
  await tellIfWaitingTooLong(d);
  return result ?? { delivered: 0, waiting: 0, dead: 0, busy: true };
}

/** The wait before a lead's next attempt: the interval, doubled after each attempt, to an hour. */
export function backoff(intervalMs: number, attempts: number): number {
  const ms = Math.min(intervalMs * 2 ** Math.max(0, attempts - 1), 60 * 60_000);
  // A little spread, so that leads that failed together are not tried all at once again.
  return ms * (0.9 + Math.random() * 0.2);
}

/** Keeps or buries a lead whose delivery stopped, and tells the owner what needs them. */
async function failed(
  d: Deliverer,
  entry: WaitingLead,
  err: DeliveryError,
): Promise<'kept' | 'dead'> {
  const id = entry.submissionId;
  const city = 'city' in entry.lead && entry.lead.city ? entry.lead.city : 'no city given';
  if (err.crm.kind === 'permanent') {
    await d.store.bury(entry, err.message);
    d.log('lead dead-lettered', { submissionId: id, reason: err.message });
    await d.alert(
      'dead-letter',
      `The CRM refused lead ${id} (${city}) for good: ${err.message}. It is kept with the dead letters; see claimsite leads list.`,
    );
    return 'dead';
  }
  await d.store.keep(entry);
  d.log('lead queued', { submissionId: id, reason: err.message });
  if (err.crm.kind === 'auth') {
    await d.alert(
      'auth',
      `The CRM refused the API token (${err.crm.message}): leads wait until GHL_TOKEN is fixed. Last one: ${id} (${city}).`,
    );
  }
  return 'kept';
}

async function tellIfWaitingTooLong(d: Deliverer): Promise<void> {
  const waiting = await d.store.waiting();
  const oldest = waiting[0];
  if (!oldest || Date.now() - Date.parse(oldest.receivedAt) < d.alertAfterMs) return;
  const city = 'city' in oldest.lead && oldest.lead.city ? oldest.lead.city : 'no city given';
  const minutes = Math.floor((Date.now() - Date.parse(oldest.receivedAt)) / 60_000);
  await d.alert(
    'waiting',
    `${waiting.length} ${waiting.length === 1 ? 'lead has' : 'leads have'} not reached the CRM; the oldest, ${oldest.submissionId} (${city}), has waited ${minutes} minutes. Last reason: ${oldest.reason}.`,
  );
}

/**
 * Drains the store every `intervalMs` while the process runs, so no lead waits for someone to
 * run `claimsite leads retry`. The timer does not keep the process alive.
 */
export function startRetrying(d: Deliverer, intervalMs = d.retryIntervalMs): { stop(): void } {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const tick = async () => {
    try {
      await drain(d);
    } catch (err) {
      d.log('drain failed', { error: (err as Error).message });
    }
    if (!stopped) schedule();
  };
  const schedule = () => {
    timer = setTimeout(() => void tick(), intervalMs);
    timer.unref();
  };
  schedule();
  return {
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
