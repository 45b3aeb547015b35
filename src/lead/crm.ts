import type { LeadConfig } from './config.js';
import type { Log } from './log.js';
import { type ContactFields, contactFields, noteBody } from './payload.js';
import type { Lead } from './schema.js';

/** A CRM call that failed; `transient` ones are worth trying again. */
export class CrmError extends Error {
  constructor(
    message: string,
    readonly transient: boolean,
    readonly status?: number,
    readonly retryAfterMs?: number,
  ) {
    super(message);
    this.name = 'CrmError';
  }
}

export interface RetryPolicy {
  attempts: number;
  baseMs: number;
  maxDelayMs: number;
  /** The whole call, retries included, ends by then. */
  totalMs: number;
  requestTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = {
  attempts: 4,
  baseMs: 300,
  maxDelayMs: 4000,
  totalMs: 12_000,
  requestTimeoutMs: 5000,
};

/** Retries transient failures with exponential back-off and full jitter, honouring Retry-After. */
export async function withRetry<T>(
  fn: () => Promise<T>,
  policy: RetryPolicy,
  sleep = delay,
): Promise<T> {
  const deadline = Date.now() + policy.totalMs;
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      const e = err instanceof CrmError ? err : new CrmError(String(err), true);
      if (!e.transient || attempt >= policy.attempts) throw e;
      const backoff =
        Math.random() * Math.min(policy.maxDelayMs, policy.baseMs * 2 ** (attempt - 1));
      const wait = Math.max(backoff, e.retryAfterMs ?? 0);
      if (Date.now() + wait >= deadline) throw e;
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
  contactUrl: string;
  noteUrl: (id: string) => string;
  headers: Record<string, string>;
  contactBody: (c: ContactFields) => unknown;
}

function api(config: LeadConfig): Api {
  const auth = {
    Authorization: `Bearer ${config.token}`,
    'Content-Type': 'application/json',
    Accept: 'application/json',
  };
  if (config.api === 'v1') {
    // SPEC §7: customField as one object.
    return {
      contactUrl: `${config.baseUrl}/v1/contacts/`,
      noteUrl: (id) => `${config.baseUrl}/v1/contacts/${encodeURIComponent(id)}/notes/`,
      headers: auth,
      contactBody: ({ custom, ...c }) => ({ ...c, customField: custom }),
    };
  }
  return {
    contactUrl: `${config.baseUrl}/contacts/`,
    noteUrl: (id) => `${config.baseUrl}/contacts/${encodeURIComponent(id)}/notes`,
    headers: { ...auth, Version: '2021-07-28' },
    contactBody: ({ custom, ...c }) => ({
      ...c,
      locationId: config.locationId,
      customFields: Object.entries(custom).map(([key, field_value]) =>
        config.customFieldIds[key]
          ? { id: config.customFieldIds[key], field_value }
          : { key, field_value },
      ),
    }),
  };
}

async function post(
  url: string,
  headers: Record<string, string>,
  body: unknown,
  timeoutMs: number,
) {
  let res: Response;
  try {
    res = await fetch(url, {
      method: 'POST',
      headers,
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(timeoutMs),
    });
  } catch (err) {
    const timeout = (err as Error).name === 'TimeoutError';
    throw new CrmError(
      timeout ? `timed out after ${timeoutMs} ms` : `network error: ${(err as Error).message}`,
      true,
    );
  }
  const text = await res.text().catch(() => '');
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // A non-JSON answer is judged by its status alone.
  }
  return { res, json };
}

export interface Delivery {
  contactId: string;
  noteAdded: boolean;
}

export interface CrmClient {
  deliver(lead: Lead): Promise<Delivery>;
}

/** GoHighLevel: the contact, then its note (SPEC §7). A failed note does not fail the lead. */
export function createCrmClient(
  config: LeadConfig,
  log: Log,
  policy: RetryPolicy = DEFAULT_RETRY,
): CrmClient {
  const a = api(config);
  const createContact = async (lead: Lead): Promise<string> => {
    const { res, json } = await post(
      a.contactUrl,
      a.headers,
      a.contactBody(contactFields(lead)),
      policy.requestTimeoutMs,
    );
    const body = json as { contact?: { id?: string }; meta?: { contactId?: string } } | null;
    if (res.ok && body?.contact?.id) return body.contact.id;
    // v2 answers 400 with the existing contact when the location forbids duplicates.
    if (res.status === 400 && body?.meta?.contactId) return body.meta.contactId;
    const transient = res.status === 429 || res.status >= 500 || (res.ok && !body?.contact?.id);
    throw new CrmError(
      `contact: HTTP ${res.status}`,
      transient,
      res.status,
      retryAfter(res.headers.get('retry-after')),
    );
  };
  const addNote = async (contactId: string, lead: Lead) => {
    const { res } = await post(
      a.noteUrl(contactId),
      a.headers,
      { body: noteBody(lead) },
      policy.requestTimeoutMs,
    );
    if (!res.ok) {
      throw new CrmError(
        `note: HTTP ${res.status}`,
        res.status === 429 || res.status >= 500,
        res.status,
        retryAfter(res.headers.get('retry-after')),
      );
    }
  };
  return {
    async deliver(lead) {
      let contactId: string;
      try {
        contactId = await withRetry(() => createContact(lead), policy);
      } catch (err) {
        log('Failed to submit contact to GHL', {
          submissionId: lead.submissionId,
          error: (err as Error).message,
        });
        throw err;
      }
      try {
        await withRetry(() => addNote(contactId, lead), policy);
        return { contactId, noteAdded: true };
      } catch (err) {
        log('Failed to add note to contact', {
          submissionId: lead.submissionId,
          contactId,
          error: (err as Error).message,
        });
        return { contactId, noteAdded: false };
      }
    },
  };
}
