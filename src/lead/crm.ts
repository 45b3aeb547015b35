import type { LeadConfig } from './config.js';
import { CustomFieldIds, type LocationField } from './custom-fields.js';
import { type Log, redact } from './log.js';
import { type ContactFields, contactFields, noteBody, submissionMark } from './payload.js';
import type { Lead } from './schema.js';

/**
 * A CRM call that did not succeed. `transient`: worth trying again later (network, time, 408,
 * 429, 5xx); `auth`: the token was refused (401, 403), so nothing is delivered until it is
 * fixed; `permanent`: the CRM refused this lead and will refuse it again (another 4xx).
 * `ambiguous`: the CRM may have acted before the answer was lost.
 */
export class CrmError extends Error {
  constructor(
    message: string,
    readonly kind: 'transient' | 'auth' | 'permanent',
    readonly status?: number,
    readonly retryAfterMs?: number,
    readonly ambiguous = false,
  ) {
    super(message);
    this.name = 'CrmError';
  }
}

/** What a delivery achieved before it stopped; kept with a waiting lead, so none is doubled. */
export interface Progress {
  contactId?: string;
  noteMayExist?: boolean;
}

/** A delivery that stopped: why, at which step, and how far it got. */
export class DeliveryError extends Error {
  constructor(
    readonly crm: CrmError,
    readonly step: 'contact' | 'tags' | 'note',
    readonly progress: Progress,
  ) {
    super(`${step}: ${crm.message}`);
    this.name = 'DeliveryError';
  }
}

export interface RetryPolicy {
  attempts: number;
  baseMs: number;
  maxDelayMs: number;
  requestTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseMs: 300,
  maxDelayMs: 2000,
  requestTimeoutMs: 5000,
};

/** Less than this left before the deadline: no new request is started. */
const MIN_REQUEST_MS = 250;

/** GoHighLevel's documented burst window (100 requests per 10 seconds), when it names none. */
const DEFAULT_RATE_INTERVAL_MS = 10_000;

/**
 * Waits out GoHighLevel's rate limit for every call of this process: it announces the requests
 * left in its window (X-RateLimit-Remaining) and the window's length
 * (X-RateLimit-Interval-Milliseconds), and documents no Retry-After; one is honoured if sent.
 */
export class RateGate {
  private openAt = 0;

  observe(res: Response, now = Date.now()): void {
    const interval = Number(res.headers.get('x-ratelimit-interval-milliseconds'));
    const window = Number.isFinite(interval) && interval > 0 ? interval : DEFAULT_RATE_INTERVAL_MS;
    const after = retryAfter(res.headers.get('retry-after'));
    if (res.status === 429) this.openAt = Math.max(this.openAt, now + (after ?? window));
    else if (res.headers.get('x-ratelimit-remaining') === '0')
      this.openAt = Math.max(this.openAt, now + window);
  }

  /** Waits until a call may be made; throws when that is past the deadline. */
  async wait(deadline: number, now = Date.now()): Promise<void> {
    if (this.openAt <= now) return;
    if (this.openAt + MIN_REQUEST_MS > deadline)
      throw new CrmError(
        `rate limited for ${Math.ceil((this.openAt - now) / 1000)} s more, past this attempt's time`,
        'transient',
        429,
        this.openAt - now,
      );
    await delay(this.openAt - now);
  }
}

/**
 * Runs `fn` until it succeeds, a failure is not transient, the attempts are spent, or the next
 * wait would pass the deadline: exponential back-off with full jitter.
 */
export async function withRetry<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy,
  deadline: number,
  sleep = delay,
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const e = err instanceof CrmError ? err : new CrmError(String(err), 'transient');
      if (e.kind !== 'transient' || attempt >= policy.attempts) throw e;
      const wait = Math.random() * Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (attempt - 1));
      if (Date.now() + wait + MIN_REQUEST_MS >= deadline) throw e;
      await sleep(wait);
    }
  }
}

const delay = (ms: number) => new Promise((r) => setTimeout(r, ms));

function retryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const secs = Number(header);
  if (Number.isFinite(secs)) return Math.max(0, secs * 1000);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, at - Date.now());
}

interface Api {
  /** Writes the contact: v2 upserts (never a second contact), v1 creates. */
  contactUrl: string;
  noteUrl: (id: string) => string;
  /**
   * v2 adds the tags apart (`POST /contacts/{id}/tags`): an upsert's `tags` "will overwrite all
   * current tags associated with the contact", the operator's own among them. v1 creates, so
   * its tags go with the contact.
   */
  tagsUrl?: (id: string) => string;
  /** v2 lists the location's custom fields, to send each by its id. */
  fieldsUrl?: string;
  /** v2 can list a contact's notes, to find one an ambiguous attempt may have added. */
  listsNotes: boolean;
  headers: Record<string, string>;
  /** The contact's body, its custom fields by the ids resolved for their keys. */
  contactBody: (c: ContactFields, ids: Record<string, string>) => unknown;
}

function api(config: LeadConfig): Api {
  const auth = {
    Authorization: `Bearer ${config.token}`,
    'Content-Type': 'application/json',
    Accept: 'application/json',
  };
  if (config.api === 'v1') {
    // v1 takes the custom fields as one object, and has no upsert: its create is used as documented.
    return {
      contactUrl: `${config.baseUrl}/v1/contacts/`,
      noteUrl: (id) => `${config.baseUrl}/v1/contacts/${encodeURIComponent(id)}/notes/`,
      listsNotes: false,
      headers: auth,
      // The seed's payload: v1 knows the custom fields by key, and takes no address parts.
      contactBody: (c) => ({
        email: c.email,
        phone: c.phone,
        firstName: c.firstName,
        lastName: c.lastName,
        address1: c.address1,
        tags: c.tags,
        source: c.source,
        customField: c.custom,
      }),
    };
  }
  const location = encodeURIComponent(config.locationId);
  return {
    // GoHighLevel's idempotent write: it updates the contact its duplicate rule matches (the
    // location's "Allow Duplicate Contact" setting), so sending it again makes no second one.
    contactUrl: `${config.baseUrl}/contacts/upsert`,
    noteUrl: (id) => `${config.baseUrl}/contacts/${encodeURIComponent(id)}/notes`,
    tagsUrl: (id) => `${config.baseUrl}/contacts/${encodeURIComponent(id)}/tags`,
    fieldsUrl: `${config.baseUrl}/locations/${location}/customFields?model=contact`,
    listsNotes: true,
    headers: { ...auth, Version: '2021-07-28' },
    contactBody: ({ custom, tags: _added, ...c }, ids) => ({
      ...c,
      locationId: config.locationId,
      customFields: Object.entries(custom)
        .filter(([key]) => ids[key])
        .map(([key, field_value]) => ({ id: ids[key], field_value })),
    }),
  };
}

export interface Delivery {
  contactId: string;
  noteAdded: boolean;
}

export interface DeliverOptions {
  /** When the delivery must have ended (ms since the epoch): no request outlasts it. */
  deadline: number;
  /** What an earlier attempt achieved. */
  progress?: Progress;
}

export interface CrmClient {
  /** Delivers the contact and its note, each exactly once; throws a DeliveryError. */
  deliver(lead: Lead, options: DeliverOptions): Promise<Delivery>;
}

/**
 * GoHighLevel: the contact, then its note. The note carries the submission's id, so
 * after an attempt that may have added it (the answer lost, the time out), the contact's notes
 * are read first and it is not added twice.
 */
export function createCrmClient(
  config: LeadConfig,
  log: Log,
  policy: RetryPolicy = DEFAULT_RETRY,
  gate = new RateGate(),
): CrmClient {
  const a = api(config);

  /** One call, within the deadline and the rate limit, judged by its status. */
  const call = async (
    method: 'GET' | 'POST',
    url: string,
    body: unknown,
    deadline: number,
  ): Promise<unknown> => {
    await gate.wait(deadline);
    const left = deadline - Date.now();
    if (left < MIN_REQUEST_MS) throw new CrmError('out of time', 'transient');
    const timeout = Math.min(policy.requestTimeoutMs, left);
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers: a.headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(timeout),
      });
    } catch (err) {
      const timedOut = (err as Error).name === 'TimeoutError';
      // The request may have reached the CRM: what it did is unknown.
      throw new CrmError(
        timedOut ? `no answer within ${timeout} ms` : `network error: ${(err as Error).message}`,
        'transient',
        undefined,
        undefined,
        true,
      );
    }
    gate.observe(res);
    const text = await res.text().catch(() => '');
    let json: unknown = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      // A non-JSON answer is judged by its status alone.
    }
    if (res.ok) return json;
    const reason = crmReason(res.status, json);
    if (res.status === 401 || res.status === 403) throw new CrmError(reason, 'auth', res.status);
    if (res.status === 408 || res.status === 429 || res.status >= 500) {
      throw new CrmError(
        reason,
        'transient',
        res.status,
        retryAfter(res.headers.get('retry-after')),
        res.status >= 500,
      );
    }
    throw new CrmError(reason, 'permanent', res.status);
  };

  const fieldsUrl = a.fieldsUrl;
  const fieldIds = fieldsUrl
    ? new CustomFieldIds(
        async (deadline) =>
          (
            (await call('GET', fieldsUrl, undefined, deadline)) as {
              customFields?: LocationField[];
            } | null
          )?.customFields ?? [],
        config.customFieldIds,
        log,
      )
    : null;

  // Retried whole (listing the fields included) by deliver's withRetry.
  const writeContact = async (lead: Lead, deadline: number): Promise<string> => {
    const fields = contactFields(lead);
    const ids = fieldIds
      ? await fieldIds.resolve(Object.keys(fields.custom), deadline)
      : config.customFieldIds;
    const json = (await call('POST', a.contactUrl, a.contactBody(fields, ids), deadline)) as {
      contact?: { id?: string };
    } | null;
    const id = json?.contact?.id;
    if (!id) throw new CrmError('answered without a contact id', 'transient');
    return id;
  };

  const hasNote = async (contactId: string, lead: Lead, deadline: number): Promise<boolean> => {
    const json = (await call('GET', a.noteUrl(contactId), undefined, deadline)) as {
      notes?: Array<{ body?: string }>;
    } | null;
    const mark = submissionMark(lead);
    return (json?.notes ?? []).some((n) => n.body?.includes(mark));
  };

  return {
    async deliver(lead, { deadline, progress = {} }) {
      const done: Progress = { ...progress };
      if (!done.contactId) {
        try {
          done.contactId = await withRetry(() => writeContact(lead, deadline), policy, deadline);
        } catch (err) {
          const e = err as CrmError;
          log('Failed to submit contact to GHL', {
            submissionId: lead.submissionId,
            error: redact(e.message, lead),
          });
          throw new DeliveryError(e, 'contact', done);
        }
      }
      const contactId = done.contactId;
      const tagsUrl = a.tagsUrl;
      if (tagsUrl) {
        // Adding tags the contact has already changes nothing: a retry simply adds them again.
        try {
          await withRetry(
            () => call('POST', tagsUrl(contactId), { tags: contactFields(lead).tags }, deadline),
            policy,
            deadline,
          );
        } catch (err) {
          const e = err as CrmError;
          log('Failed to add tags to contact', {
            submissionId: lead.submissionId,
            contactId,
            error: e.message,
          });
          throw new DeliveryError(e, 'tags', done);
        }
      }
      try {
        await withRetry(
          async () => {
            if (done.noteMayExist && a.listsNotes && (await hasNote(contactId, lead, deadline)))
              return;
            try {
              await call('POST', a.noteUrl(contactId), { body: noteBody(lead) }, deadline);
            } catch (err) {
              if ((err as CrmError).ambiguous) done.noteMayExist = true;
              throw err;
            }
          },
          policy,
          deadline,
        );
        return { contactId, noteAdded: true };
      } catch (err) {
        const e = err as CrmError;
        log('Failed to add note to contact', {
          submissionId: lead.submissionId,
          contactId,
          error: redact(e.message, lead),
        });
        throw new DeliveryError(e, 'note', done);
      }
    },
  };
}

/** The CRM's own words for a refusal: GoHighLevel answers {statusCode, message, error}. */
function crmReason(status: number, json: unknown): string {
  const message = (json as { message?: unknown } | null)?.message;
  const text = Array.isArray(message)
    ? message.join('; ')
    : typeof message === 'string'
      ? message
      : '';
  return text ? `HTTP ${status}: ${text.slice(0, 300)}` : `HTTP ${status}`;
}
