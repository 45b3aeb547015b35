import type { CountedLead } from './report.js';
import type { Lead } from './schema.js';

/**
 * A lead not yet (wholly) delivered to the CRM. What is known of its delivery travels with it,
 * so that a later attempt completes it without doubling anything: the contact's id once the CRM
 * has the contact, and whether a note may exist already (an attempt at it ended without an
 * answer: the connection dropped, the time ran out, or the process died during it).
 */
export interface WaitingLead {
  submissionId: string;
  receivedAt: string;
  lead: Lead;
  /** Attempts made from the store so far (the first delivery, at submission, not counted). */
  attempts: number;
  /** Not tried again before this moment (ISO); back-off, or the CRM's own rate limit. */
  nextAttemptAt: string;
  /** Why the last attempt did not deliver. */
  reason: string;
  contactId?: string;
  noteMayExist?: boolean;
  /** The rest of what the attempts achieved (see Progress in crm.ts). */
  refused?: string[];
  opportunityId?: string;
  enrolled?: boolean;
}

/** What of an entry's progress is kept beyond its contact id and note: one JSON value in a store. */
export function laterSteps(entry: {
  refused?: string[];
  opportunityId?: string;
  enrolled?: boolean;
}): { refused?: string[]; opportunityId?: string; enrolled?: boolean } | null {
  const steps = {
    ...(entry.refused?.length ? { refused: entry.refused } : {}),
    ...(entry.opportunityId ? { opportunityId: entry.opportunityId } : {}),
    ...(entry.enrolled ? { enrolled: true } : {}),
  };
  return Object.keys(steps).length ? steps : null;
}

/** A lead the CRM refused for good (a 4xx it will answer again), with the CRM's reason. */
export interface DeadLetter {
  submissionId: string;
  receivedAt: string;
  deadAt: string;
  reason: string;
  lead: Lead;
  contactId?: string;
}

/** A waiting lead the CRM refused for good, as the stores keep it. */
export function deadLetterOf(entry: WaitingLead, reason: string, now = Date.now()): DeadLetter {
  return {
    submissionId: entry.submissionId,
    receivedAt: entry.receivedAt,
    deadAt: new Date(now).toISOString(),
    reason,
    lead: entry.lead,
    ...(entry.contactId ? { contactId: entry.contactId } : {}),
  };
}

/** When each alert condition was last sent (ISO), so that one is sent at most once an hour. */
export type AlertState = Record<string, string>;

/** An alert condition taken for this process to send: what to put back if the sending fails. */
export interface AlertClaim {
  condition: string;
  /** When it was taken (ISO): what the store now holds for the condition. */
  at: string;
  /** What the store held before (ISO), or null when the condition had never been sent. */
  previous: string | null;
}

/**
 * The store's files are not the ones it opened, or no longer hold a store: removed, replaced,
 * truncated, damaged, or found empty where its id file says a store was. Nothing is accepted
 * into it until an operator restores a backup or starts a new store; the message says how.
 */
export class StoreHarmedError extends Error {
  constructor(
    /** What happened, for alerts: one condition each, at most once an hour. */
    readonly condition: 'store-missing' | 'store-corrupt',
    message: string,
  ) {
    super(message);
  }
}

/** Where a submission stands in a store; null when the store has never had it. */
export type LeadStatus = 'waiting' | 'dead' | 'delivered';

/** What `add` did: kept the lead, found its submission already there, or refused it (full). */
export type AddResult = 'added' | LeadStatus | 'full';

/** A person, as an access or deletion request names them. */
export interface PersonQuery {
  email?: string;
  phone?: string;
}

/** A record that holds personal data: a waiting lead or a dead letter. */
export type HeldRecord =
  | { kind: 'waiting'; entry: WaitingLead }
  | { kind: 'dead'; entry: DeadLetter };

/** Where the oldest waiting leads start after a page of them: its last lead. */
export interface WaitingCursor {
  receivedAt: string;
  submissionId: string;
}

/** Where the dead letters start after a page of them: its last one. */
export interface DeadCursor {
  deadAt: string;
  submissionId: string;
}

/**
 * Where leads are kept: SQLite on a Node host, PostgreSQL for several Node hosts (both
 * `SqlLeadStore`), Netlify Blobs on Netlify (`BlobLeadStore`). Every operation is safe while
 * other processes (another server, `claimsite leads ...`, a scheduled function) use the same
 * store, and each write is durable when it returns. Delivery, the endpoint and the CLI use this
 * interface only.
 */
export interface LeadStore {
  /**
   * Keeps a new lead unless its submission is known already (then says where it stands), or
   * refuses it when `maxWaiting` leads wait. The lead is accepted once this returns 'added'.
   */
  add(entry: WaitingLead, options: { maxWaiting: number }): Promise<AddResult>;
  /** Updates a waiting lead after an attempt; never brings back one delivered or dead. */
  keep(entry: WaitingLead): Promise<void>;
  /**
   * Waiting leads, oldest first, `limit` at most (all by default), after `after`; with `dueBy`,
   * only those whose next attempt is due by then.
   */
  waiting(options?: {
    limit?: number;
    after?: WaitingCursor;
    dueBy?: string;
  }): Promise<WaitingLead[]>;
  /** How many leads wait and how many are dead letters; cheap whatever the numbers. */
  counts(): Promise<{ waiting: number; dead: number }>;
  status(submissionId: string): Promise<LeadStatus | null>;
  /** Records a delivery: the lead's personal data goes; its id, contact id and time stay. */
  delivered(submissionId: string, contactId: string): Promise<void>;
  /** Moves a lead to the dead letters with the CRM's reason. */
  bury(entry: WaitingLead, reason: string): Promise<void>;
  /**
   * The dead letters, the first to die first, `limit` at most (all by default), after `after`;
   * with `diedBefore` (ISO), only those that died before then.
   */
  dead(options?: {
    limit?: number;
    after?: DeadCursor;
    diedBefore?: string;
  }): Promise<DeadLetter[]>;
  /** How many dead letters died before `diedBefore` (ISO): counted by index, none read. */
  deadCount(diedBefore: string): Promise<number>;
  /** Removes a waiting lead or a dead letter; false when there is none with that id. */
  drop(submissionId: string): Promise<boolean>;
  /** The waiting leads and dead letters with this submission id, e-mail or phone number. */
  find(query: PersonQuery & { submissionId?: string }): Promise<HeldRecord[]>;
  /** Deletes every waiting lead and dead letter of a person, bytes included where it can. */
  forget(person: PersonQuery): Promise<number>;
  /**
   * What is counted of each lead accepted since `since` (ISO; all by default), oldest first, with
   * what became of it: nothing personal, and kept after the lead's personal data is gone.
   */
  counted(since?: string): Promise<CountedLead[]>;
  /** Deletes the dead letters that died before `before` (ISO); how many went. */
  expire(before: string): Promise<number>;
  /**
   * Runs `fn` as the only drain of this store; another drain waits for it when `wait` is set,
   * and otherwise gets null at once. A drain whose process died is taken over.
   */
  exclusive<T>(fn: () => Promise<T>, options: { wait: boolean }): Promise<T | null>;
  alertState(): Promise<AlertState>;
  saveAlertState(state: AlertState): Promise<void>;
  /**
   * Takes an alert condition for sending, unless it was sent (or taken) within `everyMs`: the
   * time is read and written in one transaction, so that of processes and instances asking at
   * once, one only gets it. Null when it is not this caller's to send.
   */
  claimAlert(condition: string, everyMs: number): Promise<AlertClaim | null>;
  /** Puts back what a claim replaced, when the alert could not be sent: it is tried again. */
  releaseAlert(claim: AlertClaim): Promise<void>;
  /** Writes as a lead would, to tell whether one can be accepted now; throws when not. */
  check(): Promise<void>;
  close(): Promise<void>;
  /** Where it is, for people: a file, a database server, or a Netlify Blobs store. */
  readonly where: string;
}

/** A lead's first entry in the store. */
export function firstWait(
  lead: Lead,
  reason: string,
  progress: {
    contactId?: string;
    noteMayExist?: boolean;
    retryAt?: number;
    refused?: string[];
    opportunityId?: string;
    enrolled?: boolean;
  } = {},
  now = Date.now(),
): WaitingLead {
  return {
    submissionId: lead.submissionId,
    receivedAt: new Date(now).toISOString(),
    lead,
    attempts: 0,
    nextAttemptAt: new Date(progress.retryAt ?? now).toISOString(),
    reason,
    ...(progress.contactId ? { contactId: progress.contactId } : {}),
    ...(progress.noteMayExist ? { noteMayExist: true } : {}),
    ...laterSteps(progress),
  };
}

/**
 * Leads read at once by a drain: a page of 200 takes SQLite a few milliseconds, and the server
 * answers its requests between two pages (100,000 dead letters read at once stalled it 4.6 s).
 */
export const PAGE_SIZE = 200;

/** Lets the requests waiting meanwhile be answered: SQLite's calls here are synchronous. */
export const yieldToRequests = () => new Promise<void>((r) => setImmediate(r));

/** Every waiting lead, a page at a time: what a drain and `leads list` walk through. */
export async function* allWaiting(
  store: LeadStore,
  options: { dueBy?: string; pageSize?: number } = {},
): AsyncGenerator<WaitingLead> {
  const size = options.pageSize ?? PAGE_SIZE;
  let after: WaitingCursor | undefined;
  for (;;) {
    const page = await store.waiting({
      limit: size,
      ...(after ? { after } : {}),
      ...(options.dueBy ? { dueBy: options.dueBy } : {}),
    });
    yield* page;
    const last = page.at(-1);
    if (!last || page.length < size) return;
    after = { receivedAt: last.receivedAt, submissionId: last.submissionId };
    await yieldToRequests();
  }
}
