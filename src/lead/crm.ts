import { createHash } from 'node:crypto';
import type { LeadConfig } from './config.js';
import {
  type Call,
  type Existing,
  findExisting,
  refusedFields,
  upsertBody,
} from './contact-write.js';
import { CustomFieldIds, type LocationField } from './custom-fields.js';
import { type Log, redact } from './log.js';
import { ensureOpportunity } from './opportunity.js';
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
    /** The CRM may have acted: 'timeout' when no answer came in time (it may be acting still). */
    readonly ambiguous: boolean | 'timeout' = false,
    /**
     * The CRM's own messages, as its answer listed them (a 422 names the fields it refused). They
     * may quote the person (GoHighLevel echoes what it was sent): read to find the refused
     * fields and written into the note, which the CRM holds with the person anyway; never
     * logged, never in an alert. The message above holds only the status, the field names they
     * cite and a digest of the answer.
     */
    readonly messages: readonly string[] = [],
  ) {
    super(message);
    this.name = 'CrmError';
  }
}

/** What a delivery achieved before it stopped; kept with a waiting lead, so none is doubled. */
interface Progress {
  contactId?: string;
  noteMayExist?: boolean;
  /** Fields the CRM refused, which the contact went without: the note names them. */
  refused?: string[];
  /** The submission's opportunity, once made. */
  opportunityId?: string;
  /** The contact was enrolled in the workflow for this submission. */
  enrolled?: boolean;
}

/** A delivery that stopped: why, at which step, and how far it got. */
export class DeliveryError extends Error {
  constructor(
    readonly crm: CrmError,
    readonly step: 'contact' | 'tags' | 'opportunity' | 'workflow' | 'note',
    readonly progress: Progress,
  ) {
    super(`${step}: ${crm.message}`);
    this.name = 'DeliveryError';
  }

  /**
   * The refusal in the CRM's own words, for a dead letter's record, which `claimsite leads list`
   * shows the operator beside the lead itself: never for a log or an alert (the message is).
   */
  get said(): string {
    const words = this.crm.messages.join('; ').slice(0, 300);
    return words ? `${this.step}: HTTP ${this.crm.status}: ${words}` : this.message;
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
async function withRetry<T>(
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
  /** v2 looks the person up first, makes opportunities and enrols in workflows. */
  v2: boolean;
  headers: Record<string, string>;
  /** The contact's body, its custom fields by the ids resolved for their keys. */
  contactBody: (
    c: ContactFields,
    ids: Record<string, string>,
    existing: Existing,
    refused: ReadonlySet<string>,
  ) => Record<string, unknown>;
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
      v2: false,
      headers: auth,
      // The seed's payload, without the fields the visitor left empty: v1 knows the custom fields
      // by key, and takes no address parts.
      contactBody: ({ standard: { email, phone, firstName, lastName, address1 }, ...c }) => ({
        ...Object.fromEntries(
          Object.entries({ email, phone, firstName, lastName, address1 }).filter(([, v]) => v),
        ),
        tags: c.tags,
        source: c.first.source,
        customField: { ...c.custom, ...c.first.custom },
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
    v2: true,
    headers: { ...auth, Version: '2021-07-28' },
    contactBody: (c, ids, existing, refused) =>
      upsertBody(c, ids, existing, config.locationId, refused),
  };
}

interface Delivery {
  contactId: string;
  noteAdded: boolean;
}

interface DeliverOptions {
  /** When the delivery must have ended (ms since the epoch): no request outlasts it. */
  deadline: number;
  /** What an earlier attempt achieved. */
  progress?: Progress;
}

export interface CrmClient {
  /** Delivers the contact and its note, each exactly once; throws a DeliveryError. */
  deliver(lead: Lead, options: DeliverOptions): Promise<Delivery>;
}

/** What a delivery works with: the configuration, the API's shape, its calls and the log. */
interface Ctx {
  config: LeadConfig;
  a: Api;
  call: Call;
  fieldIds: CustomFieldIds | null;
  log: Log;
  policy: RetryPolicy;
}

/**
 * GoHighLevel: the person looked up, the contact, its tags, the submission's opportunity and
 * workflow enrolment, then its note. The note carries the submission's id and comes last, so after
 * an attempt that may have added it (the answer lost, the time out), the contact's notes are read
 * first: found, the submission was delivered whole, and nothing is added twice.
 */
export function createCrmClient(
  config: LeadConfig,
  log: Log,
  policy: RetryPolicy = DEFAULT_RETRY,
  gate = new RateGate(),
): CrmClient {
  const a = api(config);
  const call = callOf(a, gate, policy);
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
  const ctx: Ctx = { config, a, call, fieldIds, log, policy };
  return { deliver: (lead, options) => deliver(ctx, lead, options) };
}

/** One call, within the deadline and the rate limit, judged by its status. */
function callOf(a: Api, gate: RateGate, policy: RetryPolicy): Call {
  return async (method, url, body, deadline) => {
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
        timedOut ? 'timeout' : true,
      );
    }
    gate.observe(res);
    return judged(res);
  };
}

/** An answer's JSON, or the CrmError its status says. */
async function judged(res: Response): Promise<unknown> {
  const text = await res.text().catch(() => '');
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    // A non-JSON answer is judged by its status alone.
  }
  if (res.ok) return json;
  const messages = crmMessages(json);
  const reason = crmReason(res.status, text, messages);
  if (res.status === 401 || res.status === 403)
    throw new CrmError(reason, 'auth', res.status, undefined, false, messages);
  if (res.status === 408 || res.status === 429 || res.status >= 500) {
    throw new CrmError(
      reason,
      'transient',
      res.status,
      retryAfter(res.headers.get('retry-after')),
      res.status >= 500,
      messages,
    );
  }
  throw new CrmError(reason, 'permanent', res.status, undefined, false, messages);
}

/**
 * The contact, written once the person is looked up; a field the CRM refuses (422 naming it) is
 * left out and the contact written again at once. Retried whole (listing the fields and the
 * look-up included) by its step.
 */
async function writeContact(ctx: Ctx, lead: Lead, deadline: number, refused: Set<string>) {
  const { a, call, config, fieldIds, log } = ctx;
  const fields = contactFields(lead);
  const keys = [...Object.keys(fields.custom), ...Object.keys(fields.first.custom)];
  const ids = fieldIds ? await fieldIds.resolve(keys, deadline) : config.customFieldIds;
  const existing: Existing = a.v2
    ? await findExisting(call, config, fields, ids, deadline)
    : { found: false };
  for (;;) {
    const body = a.contactBody(fields, ids, existing, refused);
    try {
      const json = (await call('POST', a.contactUrl, body, deadline)) as {
        contact?: { id?: string };
      } | null;
      const id = json?.contact?.id;
      if (!id) throw new CrmError('answered without a contact id', 'transient');
      return id;
    } catch (err) {
      const e = err as CrmError;
      const named = refusedFields(e.status, e.messages ?? [], body, ids);
      // Without its e-mail or phone a contact could not be found again: a second would be made.
      const lost = named.includes('email') && !(body.phone && !named.includes('phone'));
      if (named.length === 0 || lost || (named.includes('phone') && !body.email)) throw err;
      for (const f of named) refused.add(f);
      log('CRM refused fields: the contact goes without them', {
        submissionId: lead.submissionId,
        fields: named,
      });
    }
  }
}

async function hasNote(ctx: Ctx, contactId: string, lead: Lead, deadline: number) {
  const json = (await ctx.call('GET', ctx.a.noteUrl(contactId), undefined, deadline)) as {
    notes?: Array<{ body?: string }>;
  } | null;
  const mark = submissionMark(lead);
  return (json?.notes ?? []).some((n) => n.body?.includes(mark));
}

/** A step of a delivery, retried within the deadline; its failure stops the delivery. */
async function step<T>(
  ctx: Ctx,
  lead: Lead,
  name: DeliveryError['step'],
  done: Progress,
  fn: () => Promise<T>,
  deadline: number,
): Promise<T> {
  try {
    return await withRetry(fn, ctx.policy, deadline);
  } catch (err) {
    const e = err as CrmError;
    ctx.log(STEP_FAILED[name], {
      submissionId: lead.submissionId,
      ...(done.contactId ? { contactId: done.contactId } : {}),
      error: redact(e.message, lead),
    });
    throw new DeliveryError(e, name, done);
  }
}

/**
 * A step the lead is delivered without when the CRM refuses it for good (an unknown pipeline or
 * workflow, a scope the token lacks): the note says so, and `claimsite leads check` names the
 * fix. Only a passing failure stops the delivery, to be tried again.
 */
async function optional(
  ctx: Ctx,
  lead: Lead,
  name: 'opportunity' | 'workflow',
  done: Progress,
  failed: string[],
  fn: () => Promise<void>,
  deadline: number,
) {
  try {
    await step(ctx, lead, name, done, fn, deadline);
  } catch (err) {
    const e = (err as DeliveryError).crm;
    if (e.kind === 'transient') throw err;
    const what = name === 'opportunity' ? 'Opportunity' : 'Workflow enrolment';
    // The note goes to the CRM, which holds the person already: its own words are fine there.
    const words = e.messages.join('; ').slice(0, 300);
    failed.push(`${what} refused by the CRM: ${words ? `HTTP ${e.status}: ${words}` : e.message}`);
  }
}

/** The opportunity and the workflow enrolment, each once per submission. */
async function followUp(ctx: Ctx, lead: Lead, done: Progress, deadline: number) {
  const { a, call, config } = ctx;
  const failed: string[] = [];
  const contactId = done.contactId ?? '';
  const { pipelineId, pipelineStageId, workflowId } = config;
  if (a.v2 && pipelineId && pipelineStageId && !done.opportunityId)
    await optional(
      ctx,
      lead,
      'opportunity',
      done,
      failed,
      async () => {
        const where = { ...config, pipelineId, pipelineStageId };
        done.opportunityId = await ensureOpportunity(call, where, lead, contactId, deadline);
      },
      deadline,
    );
  if (a.v2 && workflowId && !done.enrolled)
    await optional(
      ctx,
      lead,
      'workflow',
      done,
      failed,
      async () => {
        const path = `/contacts/${encodeURIComponent(contactId)}/workflow/${encodeURIComponent(workflowId)}`;
        await call('POST', `${config.baseUrl}${path}`, {}, deadline);
        done.enrolled = true;
      },
      deadline,
    );
  return failed;
}

/** The contact (once), its tags, the opportunity and enrolment, then the note: see createCrmClient. */
async function deliver(
  ctx: Ctx,
  lead: Lead,
  { deadline, progress = {} }: DeliverOptions,
): Promise<Delivery> {
  const { a, call } = ctx;
  const done: Progress = { ...progress };
  if (!done.contactId) {
    const refused = new Set(done.refused ?? []);
    done.contactId = await step(
      ctx,
      lead,
      'contact',
      done,
      () => writeContact(ctx, lead, deadline, refused),
      deadline,
    );
    if (refused.size > 0) done.refused = [...refused];
  }
  const contactId = done.contactId;
  // The note comes last: found, it says every step before it was done.
  if (done.noteMayExist && a.listsNotes) {
    if (
      await step(ctx, lead, 'note', done, () => hasNote(ctx, contactId, lead, deadline), deadline)
    )
      return { contactId, noteAdded: true };
    done.noteMayExist = false;
  }
  const tagsUrl = a.tagsUrl;
  // Adding tags the contact has already changes nothing: a retry simply adds them again.
  if (tagsUrl)
    await step(
      ctx,
      lead,
      'tags',
      done,
      () => call('POST', tagsUrl(contactId), { tags: contactFields(lead).tags }, deadline),
      deadline,
    );
  const failed = await followUp(ctx, lead, done, deadline);
  const note = { body: noteBody(lead, { refused: done.refused, failed }) };
  let unanswered = false;
  await step(
    ctx,
    lead,
    'note',
    done,
    async () => {
      if (done.noteMayExist && a.listsNotes && (await hasNote(ctx, contactId, lead, deadline)))
        return;
      if (unanswered && a.listsNotes) throw stillCommitting(ctx.policy);
      try {
        await call('POST', a.noteUrl(contactId), note, deadline);
      } catch (err) {
        const { ambiguous } = err as CrmError;
        if (ambiguous) done.noteMayExist = true;
        if (ambiguous === 'timeout') unanswered = true;
        throw err;
      }
    },
    deadline,
  );
  return { contactId, noteAdded: true };
}

/**
 * A note posted without an answer in time may still be written by a CRM that commits slowly
 * (one did, 6 s after a 5 s timeout): not found by the look-ups of this attempt, it is not posted
 * again now, but looked up again by the next attempt, no sooner than twice the request's time.
 */
function stillCommitting(policy: RetryPolicy): CrmError {
  return new CrmError(
    'the note went unanswered and may still be written: looked up again later',
    'transient',
    undefined,
    2 * policy.requestTimeoutMs,
    true,
  );
}

const STEP_FAILED: Record<DeliveryError['step'], string> = {
  contact: 'Failed to submit contact to GHL',
  tags: 'Failed to add tags to contact',
  opportunity: 'Failed to create the opportunity',
  workflow: 'Failed to enrol the contact in the workflow',
  note: 'Failed to add note to contact',
};

/** The messages of a GoHighLevel refusal, {statusCode, message: string | string[], error}. */
function crmMessages(json: unknown): string[] {
  const message = (json as { message?: unknown } | null)?.message;
  if (Array.isArray(message)) return message.filter((m): m is string => typeof m === 'string');
  return typeof message === 'string' ? [message] : [];
}

/**
 * A refusal as logs and alerts may tell it, whatever the CRM put in its answer (GoHighLevel
 * echoes what it was sent, the person's e-mail or phone in any case or spacing): its status, the
 * names of our own fields its messages cite, and a digest of the answer, which tells two answers
 * apart and matches the CRM's own logs without saying what they hold.
 */
function crmReason(status: number, text: string, messages: readonly string[]): string {
  const cited = citedFields(messages);
  const digest = createHash('sha256').update(text).digest('hex').slice(0, 12);
  return `HTTP ${status}${cited.length ? ` citing ${cited.join(', ')}` : ''} (answer sha256 ${digest})`;
}

/** The names of the fields we send that the CRM's messages cite (`customFields.2` as customFields). */
function citedFields(messages: readonly string[]): string[] {
  const out = new Set<string>();
  for (const m of messages)
    for (const word of m.split(/[^A-Za-z0-9_]+/)) if (KNOWN_FIELDS.has(word)) out.add(word);
  return [...out];
}

/** Every field name of the bodies we send GoHighLevel: the only words of its answers logged. */
const KNOWN_FIELDS = new Set([
  'locationId',
  'firstName',
  'lastName',
  'name',
  'email',
  'phone',
  'address1',
  'city',
  'state',
  'postalCode',
  'country',
  'tags',
  'source',
  'customFields',
  'customField',
  'field_value',
  'body',
  'contactId',
  'pipelineId',
  'pipelineStageId',
  'status',
  'monetaryValue',
]);
