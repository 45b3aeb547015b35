import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/**
 * A stand-in for GoHighLevel on loopback that keeps its published contract (the OpenAPI spec in
 * GoHighLevel/highlevel-api-docs, apps/contacts.json, and its rate-limit documentation):
 *
 * - v2 at `/contacts/upsert`, `/contacts/` and `/contacts/{id}/notes` (POST and GET); a Bearer
 *   token; `Version: 2021-07-28`; `locationId` required; a body field it does not know refused
 *   with 422 `{statusCode, message: ["property x should not exist"], error}`;
 * - the location's duplicate rule: with duplicates allowed, create makes a second contact for
 *   the same e-mail, and upsert updates the one that matches first (e-mail, then phone);
 *   without, create answers 400 with the existing contact's id in `meta`;
 * - `X-RateLimit-Max` (100), `X-RateLimit-Interval-Milliseconds` (10,000), `X-RateLimit-Remaining`
 *   and the daily pair on every answer, and 429 past the burst limit (no Retry-After, which
 *   GoHighLevel does not document);
 * - v1 (`/v1/contacts/`, `/v1/contacts/{id}/notes/`) as the spec's seed used it.
 *
 * Tests tell it to fail, stall, or drop the connection before or after it acts.
 */
export type Fault =
  | { status: number; retryAfter?: string; message?: string | string[] }
  | { stallMs: number }
  | { drop: 'before' | 'after' }
  | { drop: true };

const str = z.string();
const customField = z.union([
  z.strictObject({ key: str, field_value: str }),
  z.strictObject({ id: str, field_value: str }),
]);
const contactV2 = z.strictObject({
  locationId: str,
  firstName: str.optional(),
  lastName: str.optional(),
  email: str.optional(),
  phone: str.optional(),
  address1: str.optional(),
  tags: z.array(str).optional(),
  source: str.optional(),
  customFields: z.array(customField).optional(),
});
const contactV1 = z.strictObject({
  firstName: str,
  lastName: str,
  email: str,
  phone: str,
  address1: str,
  tags: z.array(str),
  source: str,
  customField: z.record(str, str),
});
const noteV2 = z.strictObject({ body: str.min(1), userId: str.optional() });
const noteV1 = z.strictObject({ body: str.min(1) });

export interface FakeCrmOptions {
  api: 'v1' | 'v2';
  token?: string;
  locationId?: string;
  /** The location's "Allow Duplicate Contact" setting (v2). Default: allowed, the riskier case. */
  allowDuplicates?: boolean;
  /** Requests a location may make per window; GoHighLevel's burst limit is 100 per 10 s. */
  burstLimit?: number;
  burstWindowMs?: number;
}

type Kind = 'contact' | 'upsert' | 'note' | 'notes';

/** class-validator's wording, which GoHighLevel answers with. */
function validationMessages(issues: z.core.$ZodIssue[]): string[] {
  return issues.flatMap((i) =>
    i.code === 'unrecognized_keys'
      ? i.keys.map((k) => `property ${k} should not exist`)
      : [`${i.path.join('.') || 'body'} ${i.message}`],
  );
}

export async function startFakeCrm(options: FakeCrmOptions) {
  const token = options.token ?? 'pit-test-token-0000';
  const locationId = options.locationId ?? 'loc_test_123';
  const allowDuplicates = options.allowDuplicates ?? true;
  const burstLimit = options.burstLimit ?? 100;
  const burstWindowMs = options.burstWindowMs ?? 10_000;
  const contacts = new Map<string, Record<string, unknown>>();
  const notes: Array<{ contactId: string; body: string }> = [];
  const calls: Array<{ method: string; path: string; status: number }> = [];
  const faults: Record<'contact' | 'note', Fault[]> = { contact: [], note: [] };
  /** Each call fails with this probability (a 503), for load tests. */
  let failureRate = 0;
  /** Each call drops its connection after acting with this probability, for load tests. */
  let dropAfterRate = 0;
  /** Until then every call answers 503: the CRM is down. */
  let downUntil = 0;
  const recent: number[] = [];
  let daily = 0;
  let nextId = 1;

  const rateHeaders = () => ({
    'X-RateLimit-Limit-Daily': '200000',
    'X-RateLimit-Daily-Remaining': String(Math.max(0, 200_000 - daily)),
    'X-RateLimit-Interval-Milliseconds': String(burstWindowMs),
    'X-RateLimit-Max': String(burstLimit),
    'X-RateLimit-Remaining': String(Math.max(0, burstLimit - recent.length)),
  });
  const send = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res
      .writeHead(status, { 'Content-Type': 'application/json', ...rateHeaders(), ...headers })
      .end(JSON.stringify(body));
  };

  const route = (method: string, path: string): { kind: Kind; id?: string } | null => {
    if (options.api === 'v1') {
      if (method === 'POST' && path === '/v1/contacts/') return { kind: 'contact' };
      const note = /^\/v1\/contacts\/([^/]+)\/notes\/$/.exec(path);
      if (method === 'POST' && note) return { kind: 'note', id: decodeURIComponent(note[1] ?? '') };
      return null;
    }
    if (method === 'POST' && path === '/contacts/upsert') return { kind: 'upsert' };
    if (method === 'POST' && path === '/contacts/') return { kind: 'contact' };
    const note = /^\/contacts\/([^/]+)\/notes$/.exec(path);
    if (note) {
      const id = decodeURIComponent(note[1] ?? '');
      if (method === 'POST') return { kind: 'note', id };
      if (method === 'GET') return { kind: 'notes', id };
    }
    return null;
  };

  /** The contact the location's duplicate rule matches: by e-mail first, then by phone. */
  const matching = (c: { email?: string; phone?: string }) =>
    [...contacts].find(([, x]) => c.email && x.email === c.email) ??
    [...contacts].find(([, x]) => c.phone && x.phone === c.phone);

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    const record = (status: number) => calls.push({ method: req.method ?? '', path, status });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');

    const r = route(req.method ?? '', path);
    if (!r) {
      record(404);
      return send(res, 404, { statusCode: 404, message: `Cannot ${req.method} ${path}` });
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      record(401);
      return send(res, 401, {
        statusCode: 401,
        message: 'Invalid JWT',
        error: 'Unauthorized',
      });
    }
    if (options.api === 'v2' && req.headers.version !== '2021-07-28') {
      record(400);
      return send(res, 400, { statusCode: 400, message: 'Version header was not found' });
    }
    const now = Date.now();
    while (recent.length && (recent[0] ?? 0) <= now - burstWindowMs) recent.shift();
    if (recent.length >= burstLimit) {
      record(429);
      return send(res, 429, { statusCode: 429, message: 'Too Many Requests' });
    }
    recent.push(now);
    daily++;
    if (
      req.method === 'POST' &&
      !String(req.headers['content-type']).startsWith('application/json')
    ) {
      record(415);
      return send(res, 415, { statusCode: 415, message: 'Unsupported Media Type' });
    }
    const group = r.kind === 'note' || r.kind === 'notes' ? 'note' : 'contact';
    const fault =
      faults[group].shift() ??
      (now < downUntil || Math.random() < failureRate ? { status: 503 } : undefined);
    if (fault && 'drop' in fault && fault.drop !== 'after') {
      record(0);
      return void req.socket.destroy();
    }
    if (fault && 'stallMs' in fault) await new Promise((r) => setTimeout(r, fault.stallMs));
    if (fault && 'status' in fault) {
      record(fault.status);
      return send(
        res,
        fault.status,
        { statusCode: fault.status, message: fault.message ?? 'fault injected' },
        fault.retryAfter ? { 'Retry-After': fault.retryAfter } : {},
      );
    }
    /** Acts, then loses the answer: the case that makes doubles. */
    const dropAfter =
      (fault && 'drop' in fault && fault.drop === 'after') || Math.random() < dropAfterRate;
    const answer = (status: number, body: unknown) => {
      if (dropAfter) {
        record(-status);
        return void req.socket.destroy();
      }
      record(status);
      send(res, status, body);
    };

    let body: unknown = null;
    if (req.method === 'POST') {
      try {
        body = JSON.parse(text);
      } catch {
        record(400);
        return send(res, 400, { statusCode: 400, message: 'Unexpected token in JSON' });
      }
    }
    if (r.kind === 'contact' || r.kind === 'upsert') {
      const parsed = (options.api === 'v2' ? contactV2 : contactV1).safeParse(body);
      if (!parsed.success) {
        record(422);
        return send(res, 422, {
          statusCode: 422,
          message: validationMessages(parsed.error.issues),
          error: 'Unprocessable Entity',
        });
      }
      const data = parsed.data as Record<string, unknown> & { email?: string; phone?: string };
      if (options.api === 'v2' && data.locationId !== locationId) {
        record(403);
        return send(res, 403, {
          statusCode: 403,
          message: 'The token does not have access to this location.',
        });
      }
      const existing = matching(data);
      if (r.kind === 'upsert') {
        if (existing) {
          contacts.set(existing[0], { ...existing[1], ...data });
          return answer(200, { new: false, contact: { id: existing[0], ...data }, traceId: 't' });
        }
        const id = `c${nextId++}`;
        contacts.set(id, data);
        return answer(200, { new: true, contact: { id, ...data }, traceId: 't' });
      }
      if (existing && options.api === 'v2' && !allowDuplicates) {
        record(400);
        return send(res, 400, {
          statusCode: 400,
          message: 'This location does not allow duplicated contacts.',
          meta: { contactId: existing[0], matchingField: 'email' },
        });
      }
      const id = `c${nextId++}`;
      contacts.set(id, data);
      return answer(options.api === 'v2' ? 201 : 200, { contact: { id, ...data } });
    }
    const contactId = r.id ?? '';
    if (!contacts.has(contactId)) {
      record(400);
      return send(res, 400, { statusCode: 400, message: 'Contact not found' });
    }
    if (r.kind === 'notes') {
      const list = notes
        .filter((n) => n.contactId === contactId)
        .map((n, i) => ({ id: `n${i + 1}`, body: n.body, contactId }));
      return answer(200, { notes: list });
    }
    const parsed = (options.api === 'v2' ? noteV2 : noteV1).safeParse(body);
    if (!parsed.success) {
      record(422);
      return send(res, 422, {
        statusCode: 422,
        message: validationMessages(parsed.error.issues),
        error: 'Unprocessable Entity',
      });
    }
    notes.push({ contactId, body: parsed.data.body });
    return answer(options.api === 'v2' ? 201 : 200, {
      note: { id: `n${notes.length}`, body: parsed.data.body, contactId },
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    token,
    locationId,
    contacts,
    notes,
    calls,
    fail: (kind: 'contact' | 'note', ...f: Fault[]) => faults[kind].push(...f),
    setFailureRate: (rate: number) => {
      failureRate = rate;
    },
    setDropAfterRate: (rate: number) => {
      dropAfterRate = rate;
    },
    /** Every call answers 503 for this long. */
    down: (ms: number) => {
      downUntil = Date.now() + ms;
    },
    /** Contacts sharing an e-mail: each one past the first is a duplicate. */
    duplicates: () => {
      const seen = new Map<unknown, number>();
      for (const c of contacts.values()) seen.set(c.email, (seen.get(c.email) ?? 0) + 1);
      return [...seen.values()].reduce((n, k) => n + k - 1, 0);
    },
    /** Notes added more than once for one submission (their "Submission:" lines). */
    duplicateNotes: () => {
      const seen = new Map<string, number>();
      for (const n of notes) {
        const id = /Submission: (\S+)/.exec(n.body)?.[1] ?? n.body;
        seen.set(id, (seen.get(id) ?? 0) + 1);
      }
      return [...seen.values()].reduce((n, k) => n + k - 1, 0);
    },
    /** Environment for the lead endpoint or `claimsite leads retry` to reach this CRM. */
    env: (): Record<string, string> => ({
      GHL_API_VERSION: options.api,
      GHL_TOKEN: token,
      GHL_LOCATION_ID: locationId,
      GHL_BASE_URL: url,
    }),
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

export type FakeCrm = Awaited<ReturnType<typeof startFakeCrm>>;
