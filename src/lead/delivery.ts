import type { Alert } from './alerts.js';
import { type CrmClient, DeliveryError } from './crm.js';
import type { StoreHealth } from './health.js';
import { type Log, redact } from './log.js';
import type { Lead } from './schema.js';
import {
  type AddResult,
  allWaiting,
  firstWait,
  type LeadStore,
  laterSteps,
  StoreHarmedError,
  type WaitingLead,
} from './store.js';
import { storeConditionOf } from './store-failure.js';

/** Everything that delivers leads, wherever it runs: the endpoint, a drain, a scheduled function. */
export interface Deliverer {
  store: LeadStore;
  /** Absent while no CRM token is set: every lead waits. */
  crm?: CrmClient;
  alert: Alert;
  log: Log;
  /** Whether the store took its last write: what the health check answers from. */
  health: StoreHealth;
  /** The least time between two attempts of a waiting lead; it doubles after each, to an hour. */
  retryIntervalMs: number;
  /** A lead waiting longer than this is told to the owner. */
  alertAfterMs: number;
  /** New leads are refused while this many wait (the owner is told before). */
  maxWaiting: number;
  /** Dead letters are deleted this many days after the CRM refused them. */
  deadLetterDays: number;
}

export type Outcome = 'delivered' | 'queued';

/** A drain stops trying after this many leads in a row could not be delivered for now. */
const GIVE_UP_AFTER = 3;

const NO_TOKEN = 'no CRM token configured';

/**
 * The reason a lead is kept with while the endpoint delivers it: no drain tries it before its
 * next attempt time (the attempt ends well within it), and one whose process died during the
 * attempt is tried then, looking for the note that attempt may have added.
 */
const FIRST_ATTEMPT = 'first delivery under way';
const FIRST_ATTEMPT_MS = 15_000;

/** The store holds as many waiting leads as it may: new ones are refused until some go. */
class StoreFullError extends Error {}

/** How long a failed write waits before its one more try. */
const RETRY_WRITE_MS = 100;

/**
 * Accepts a submitted lead and delivers it by `deadline`. The lead is kept in the store before
 * anything is sent: once that commits it is accepted, and nothing that happens after (the CRM
 * failing, the process dying) can lose it. Whatever is not delivered by the deadline waits in
 * the store with what the attempt achieved. A submission already delivered, or already waiting,
 * is not sent again.
 */
export async function deliverOrKeep(d: Deliverer, lead: Lead, deadline: number): Promise<Outcome> {
  const id = lead.submissionId;
  const now = Date.now();
  const added = await accept(
    d,
    d.crm
      ? firstWait(lead, FIRST_ATTEMPT, { noteMayExist: true, retryAt: now + FIRST_ATTEMPT_MS }, now)
      : firstWait(lead, NO_TOKEN, {}, now),
  );
  if (added === 'delivered') return 'delivered';
  if (added !== 'added') return 'queued';
  if (!d.crm) {
    d.log('lead queued', { submissionId: id, reason: NO_TOKEN });
    return 'queued';
  }
  let contactId: string;
  try {
    ({ contactId } = await d.crm.deliver(lead, { deadline }));
  } catch (err) {
    if (!(err instanceof DeliveryError)) {
      afterAcceptance(d, id, err);
      return 'queued';
    }
    const entry = firstWait(lead, err.message, {
      ...err.progress,
      retryAt: Date.now() + (err.crm.retryAfterMs ?? 0),
    });
    await failed(d, entry, err).catch((stored) => afterAcceptance(d, id, stored));
    return 'queued';
  }
  d.log('lead delivered', { submissionId: id, contactId });
  // Not recorded (the disk filled since): the lead stays as accepted, and a drain finds the
  // contact and its note in the CRM and records it then.
  await d.store.delivered(id, contactId).catch((err) => afterAcceptance(d, id, err));
  return 'delivered';
}

/**
 * Something failed after the lead was accepted (the store could not record what became of it,
 * or the attempt broke): the lead is kept as it was accepted, and a drain completes it.
 */
function afterAcceptance(d: Deliverer, id: string, err: unknown) {
  d.log('lead kept for a later attempt', {
    submissionId: id,
    error: (err as Error).message,
  });
}

/**
 * Keeps a new lead: one transaction, durable when it returns. A write that fails is tried once
 * more before the visitor is refused: two servers writing one SQLite file at once refused one
 * lead in sixteen now and then, and the write is idempotent (a submission kept by the first try
 * is found by the second). A harmed store is not tried again: it refuses until an operator acts.
 */
async function accept(d: Deliverer, entry: WaitingLead): Promise<AddResult> {
  let result: AddResult;
  try {
    result = await d.store.add(entry, { maxWaiting: d.maxWaiting }).catch(async (err: unknown) => {
      if (err instanceof StoreHarmedError) throw err;
      d.log('lead write tried again', { error: (err as Error).message });
      await new Promise((r) => setTimeout(r, RETRY_WRITE_MS));
      return d.store.add(entry, { maxWaiting: d.maxWaiting });
    });
  } catch (err) {
    d.health.failed(err);
    throw err;
  }
  d.health.succeeded();
  if (result === 'full') {
    await d.alert(
      'full',
      `${d.maxWaiting} leads wait for the CRM, the most LEAD_MAX_WAITING allows: new leads are refused (visitors are given the phone number) until some are delivered or dropped. See claimsite leads list.`,
    );
    throw new StoreFullError(`${d.maxWaiting} leads wait already`);
  }
  return result;
}

interface DrainResult {
  delivered: number;
  /** Still waiting: not due yet, or tried again and not delivered. */
  waiting: number;
  /** Moved to the dead letters in this drain. */
  dead: number;
  /** Another drain of the same store was under way (only when not waiting for it). */
  busy: boolean;
}

/**
 * One pass over the waiting leads, oldest first, a page at a time: each one that is due (every
 * one, with `all`, but one the endpoint is delivering at this moment) is tried again; one the
 * CRM refuses for good becomes a dead letter. One drain of a store at a time: with `all`
 * (`claimsite leads retry`) it waits for another to end, on a schedule it lets it be. It stops
 * starting deliveries by `until`, or once `signal` is aborted (the server is stopping). Then
 * dead letters past their time are deleted, and the owner is told what needs them.
 */
export async function drain(
  d: Deliverer,
  options: { all?: boolean; until?: number; signal?: AbortSignal } = {},
): Promise<DrainResult> {
  const until = options.until ?? Number.POSITIVE_INFINITY;
  const result = await d.store.exclusive(
    async () => {
      const r: DrainResult = { delivered: 0, waiting: 0, dead: 0, busy: false };
      const dueBy = options.all ? undefined : new Date().toISOString();
      let failing = 0;
      for await (const entry of allWaiting(d.store, dueBy ? { dueBy } : {})) {
        const now = Date.now();
        if (!d.crm || now >= until - 1000 || options.signal?.aborted) break;
        if (entry.reason === FIRST_ATTEMPT && Date.parse(entry.nextAttemptAt) > now) continue;
        // Marked before anything is sent: were this process to die during the attempt, the
        // next would look for the note this one may have added rather than add a second.
        if (!entry.noteMayExist) await d.store.keep({ ...entry, noteMayExist: true });
        try {
          const { contactId } = await d.crm.deliver(entry.lead, {
            deadline: Math.min(now + 15_000, until),
            progress: {
              contactId: entry.contactId,
              noteMayExist: entry.noteMayExist,
              ...laterSteps(entry),
            },
          });
          d.log('lead delivered', { submissionId: entry.submissionId, contactId, from: 'outbox' });
          await d.store.delivered(entry.submissionId, contactId);
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
          // The token is refused, or the CRM keeps failing: the other leads would fare no
          // better now, and each would spend its seconds of retries finding that out.
          if (err.crm.kind === 'transient') failing++;
          if (err.crm.kind === 'auth' || failing >= GIVE_UP_AFTER) break;
        }
      }
      r.waiting = (await d.store.counts()).waiting;
      await expireDeadLetters(d);
      return r;
    },
    { wait: Boolean(options.all) },
  );
  await tellIfWaitingTooLong(d);
  return result ?? { delivered: 0, waiting: 0, dead: 0, busy: true };
}

/** The wait before a lead's next attempt: the interval, doubled after each attempt, to an hour. */
function backoff(intervalMs: number, attempts: number): number {
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
  const city = cityOf(entry.lead);
  // The CRM's own words, which could quote what it was sent in any form, stay with the dead
  // letter; logs and alerts have the status, the fields it cites and a digest (crmReason).
  const reason = redact(err.message, entry.lead);
  if (err.crm.kind === 'permanent') {
    await d.store.bury(entry, err.said);
    d.log('lead dead-lettered', { submissionId: id, reason });
    await d.alert(
      'dead-letter',
      `The CRM refused lead ${id} (${city}) for good: ${reason}. It is kept with the dead letters for ${d.deadLetterDays} days; see claimsite leads list.`,
    );
    return 'dead';
  }
  await d.store.keep(entry);
  d.log('lead queued', { submissionId: id, reason });
  if (err.crm.kind === 'auth') {
    await d.alert(
      'auth',
      `The CRM refused the API token (${err.crm.message}): leads wait until GHL_TOKEN is fixed. Last one: ${id} (${city}).`,
    );
  }
  return 'kept';
}

const cityOf = (lead: Lead) => ('city' in lead && lead.city ? lead.city : 'no city given');

/** Tells the owner when a lead has waited too long, and when the store nears its cap. */
async function tellIfWaitingTooLong(d: Deliverer): Promise<void> {
  const { waiting } = await d.store.counts();
  if (waiting >= d.maxWaiting * 0.8) {
    await d.alert(
      'full',
      `${waiting} leads wait for the CRM; at ${d.maxWaiting} (LEAD_MAX_WAITING) new leads will be refused and visitors given the phone number. See claimsite leads list.`,
    );
  }
  const [oldest] = await d.store.waiting({ limit: 1 });
  if (!oldest || Date.now() - Date.parse(oldest.receivedAt) < d.alertAfterMs) return;
  const minutes = Math.floor((Date.now() - Date.parse(oldest.receivedAt)) / 60_000);
  await d.alert(
    'waiting',
    `${waiting} ${waiting === 1 ? 'lead has' : 'leads have'} not reached the CRM; the oldest, ${oldest.submissionId} (${cityOf(oldest.lead)}), has waited ${minutes} minutes. Last reason: ${redact(oldest.reason, oldest.lead)}.`,
  );
}

const DAY_MS = 24 * 60 * 60_000;

/**
 * Deletes the dead letters older than LEAD_DEAD_LETTER_DAYS, and tells the owner of those that
 * will go within three days (half the time, when it is shorter), while they can still act.
 */
async function expireDeadLetters(d: Deliverer): Promise<void> {
  const now = Date.now();
  const keepMs = d.deadLetterDays * DAY_MS;
  const expired = await d.store.expire(new Date(now - keepMs).toISOString());
  if (expired > 0) d.log('dead letters expired', { count: expired, days: d.deadLetterDays });
  const warnMs = Math.min(3 * DAY_MS, keepMs / 2);
  // Of those that go soon, the first ten by name and how many in all: never every one read
  // (100,000 read at once stalled the server 4.6 s a pass).
  const diedBefore = new Date(now - keepMs + warnMs).toISOString();
  const soon = await d.store.dead({ limit: 10, diedBefore });
  const first = soon[0];
  if (!first) return;
  const count = await d.store.deadCount(diedBefore);
  const when = new Date(Date.parse(first.deadAt) + keepMs)
    .toISOString()
    .slice(0, 16)
    .replace('T', ' ');
  await d.alert(
    'expiring',
    `${count} ${count === 1 ? 'dead letter' : 'dead letters'} will be deleted ${d.deadLetterDays} days after the CRM refused ${count === 1 ? 'it' : 'them'} (LEAD_DEAD_LETTER_DAYS), the first at ${when} UTC: ${soon
      .map((l) => `${l.submissionId} (${cityOf(l.lead)})`)
      .join(', ')}${count > 10 ? ', ...' : ''}. See claimsite leads list.`,
  );
}

/**
 * Drains the store every `intervalMs` while the process runs, so no lead waits for someone to
 * run `claimsite leads retry`. The timer does not keep the process alive. `stop` ends the
 * schedule and resolves once a drain under way has finished the lead it was delivering.
 */
export function startRetrying(
  d: Deliverer,
  intervalMs = d.retryIntervalMs,
): { stop(): Promise<void> } {
  let timer: NodeJS.Timeout | null = null;
  let running: Promise<void> | null = null;
  const stopping = new AbortController();
  const tick = () => {
    running = drain(d, { signal: stopping.signal })
      .then(
        () => {},
        (err) => {
          d.log('drain failed', { error: (err as Error).message });
          // A store failing under a drain is one nobody may be posting to: health and the
          // owner hear of it now, not at the next lead.
          if (storeConditionOf(err)) d.health.failed(err);
        },
      )
      .finally(() => {
        running = null;
        if (!stopping.signal.aborted) schedule();
      });
  };
  const schedule = () => {
    timer = setTimeout(tick, intervalMs);
    timer.unref();
  };
  schedule();
  return {
    async stop() {
      stopping.abort();
      if (timer) clearTimeout(timer);
      await running;
    },
  };
}
