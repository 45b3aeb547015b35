import type { Lead } from './schema.js';

/**
 * A lead not yet (wholly) delivered to the CRM. What is known of its delivery travels with it,
 * so that a later attempt completes it without doubling anything: the contact's id once the CRM
 * has the contact, and whether a note may exist already (an attempt at it ended without an
 * answer: the connection dropped or the time ran out after the CRM may have acted).
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
export function deadLetterOf(entry: WaitingLead, reason: string): DeadLetter {
  return {
    submissionId: entry.submissionId,
    receivedAt: entry.receivedAt,
    deadAt: new Date().toISOString(),
    reason,
    lead: entry.lead,
    ...(entry.contactId ? { contactId: entry.contactId } : {}),
  };
}

/** When each alert condition was last sent (ISO), so that one is sent at most once an hour. */
export type AlertState = Record<string, string>;

/**
 * Where leads wait: a folder of files on a Node host (FileLeadStore), Netlify Blobs on Netlify
 * (BlobLeadStore). Every operation is safe while other processes (another server, `claimsite
 * leads retry`, a scheduled function) use the same store.
 */
export interface LeadStore {
  /** Keeps a lead, or updates it when it waits already. Durable when it returns. */
  keep(entry: WaitingLead): Promise<void>;
  /** The leads waiting, oldest first: neither delivered nor dead. */
  waiting(): Promise<WaitingLead[]>;
  isWaiting(submissionId: string): Promise<boolean>;
  isDelivered(submissionId: string): Promise<boolean>;
  /** Records a delivery; the lead no longer waits. */
  delivered(submissionId: string, contactId: string): Promise<void>;
  /** Moves a lead to the dead letters with the CRM's reason. */
  bury(entry: WaitingLead, reason: string): Promise<void>;
  dead(): Promise<DeadLetter[]>;
  /** Removes a waiting lead or a dead letter; false when there is none with that id. */
  drop(submissionId: string): Promise<boolean>;
  /**
   * Runs `fn` as the only drain of this store; another drain waits for it when `wait` is set,
   * and otherwise gets null at once.
   */
  exclusive<T>(fn: () => Promise<T>, options: { wait: boolean }): Promise<T | null>;
  alertState(): Promise<AlertState>;
  saveAlertState(state: AlertState): Promise<void>;
  /** Where it is, for people: a folder, or a Netlify Blobs store. */
  readonly where: string;
}

/** A lead's first entry in the store, after the attempt made when it was submitted. */
export function firstWait(
  lead: Lead,
  reason: string,
  progress: { contactId?: string; noteMayExist?: boolean; retryAt?: number } = {},
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
  };
}
