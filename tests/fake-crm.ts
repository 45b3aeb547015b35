import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/**
 * A stand-in for GoHighLevel on loopback that enforces its contract: the bearer token, the
 * Version header (v2), the paths, the payload shape (no unknown fields) and the status codes.
 * Tests tell it to fail, stall, drop or rate-limit the next calls.
 */
export type Fault = { status: number; retryAfter?: string } | { stallMs: number } | { drop: true };

const str = z.string();
const contactV2 = z.strictObject({
  locationId: str,
  firstName: str,
  lastName: str,
  email: str,
  phone: str,
  address1: str,
  tags: z.array(str),
  source: str,
  customFields: z.array(
    z.union([
      z.strictObject({ key: str, field_value: str }),
      z.strictObject({ id: str, field_value: str }),
    ]),
  ),
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
const note = z.strictObject({ body: str.min(1) });

export interface FakeCrmOptions {
  api: 'v1' | 'v2';
  token?: string;
  locationId?: string;
  /** v2 locations may refuse duplicate contacts (by e-mail), answering with the existing id. */
  allowDuplicates?: boolean;
}

export async function startFakeCrm(options: FakeCrmOptions) {
  const token = options.token ?? 'pit-test-token-0000';
  const locationId = options.locationId ?? 'loc_test_123';
  const contacts = new Map<string, Record<string, unknown>>();
  const notes: Array<{ contactId: string; body: string }> = [];
  const calls: Array<{ method: string; path: string; status: number }> = [];
  const faults: Record<'contact' | 'note', Fault[]> = { contact: [], note: [] };
  /** Each call fails with this probability (a 503), for load tests. */
  let failureRate = 0;
  let nextId = 1;

  const send = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res
      .writeHead(status, { 'Content-Type': 'application/json', ...headers })
      .end(JSON.stringify(body));
  };

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '';
    const record = (status: number) => calls.push({ method: req.method ?? '', path, status });
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');

    const v = options.api;
    const contactPath = v === 'v2' ? /^\/contacts\/$/ : /^\/v1\/contacts\/$/;
    const notePath =
      v === 'v2' ? /^\/contacts\/([^/]+)\/notes$/ : /^\/v1\/contacts\/([^/]+)\/notes\/$/;
    const kind = contactPath.test(path) ? 'contact' : notePath.test(path) ? 'note' : null;
    if (req.method !== 'POST' || !kind) {
      record(404);
      return send(res, 404, { message: `Cannot ${req.method} ${path}` });
    }
    if (req.headers.authorization !== `Bearer ${token}`) {
      record(401);
      return send(res, 401, { statusCode: 401, message: 'Invalid JWT' });
    }
    if (v === 'v2' && req.headers.version !== '2021-07-28') {
      record(400);
      return send(res, 400, { statusCode: 400, message: 'Version header was not found' });
    }
    if (!String(req.headers['content-type']).startsWith('application/json')) {
      record(415);
      return send(res, 415, { message: 'Unsupported Media Type' });
    }
    const fault =
      faults[kind].shift() ?? (Math.random() < failureRate ? { status: 503 } : undefined);
    if (fault && 'drop' in fault) {
      record(0);
      return void req.socket.destroy();
    }
    if (fault && 'stallMs' in fault) await new Promise((r) => setTimeout(r, fault.stallMs));
    if (fault && 'status' in fault) {
      record(fault.status);
      return send(
        res,
        fault.status,
        { message: 'fault injected' },
        fault.retryAfter ? { 'Retry-After': fault.retryAfter } : {},
      );
    }
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      record(400);
      return send(res, 400, { message: 'Unexpected token in JSON' });
    }
    if (kind === 'contact') {
      const parsed = (v === 'v2' ? contactV2 : contactV1).safeParse(body);
      if (
        !parsed.success ||
        (v === 'v2' && (parsed.data as { locationId: string }).locationId !== locationId)
      ) {
        record(422);
        return send(res, 422, {
          statusCode: 422,
          message: parsed.success
            ? ['locationId is wrong']
            : parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`),
        });
      }
      const email = (parsed.data as { email: string }).email;
      const existing = [...contacts].find(([, c]) => c.email === email);
      if (existing && options.allowDuplicates === false) {
        record(400);
        return send(res, 400, {
          statusCode: 400,
          message: 'This location does not allow duplicated contacts.',
          meta: { contactId: existing[0], matchingField: 'email' },
        });
      }
      const id = `c${nextId++}`;
      contacts.set(id, parsed.data as Record<string, unknown>);
      record(v === 'v2' ? 201 : 200);
      return send(res, v === 'v2' ? 201 : 200, { contact: { id, ...parsed.data } });
    }
    const contactId = decodeURIComponent(notePath.exec(path)?.[1] ?? '');
    const parsed = note.safeParse(body);
    if (!parsed.success) {
      record(422);
      return send(res, 422, { message: 'body is required' });
    }
    if (!contacts.has(contactId)) {
      record(404);
      return send(res, 404, { message: 'Contact not found' });
    }
    notes.push({ contactId, body: parsed.data.body });
    record(v === 'v2' ? 201 : 200);
    return send(res, v === 'v2' ? 201 : 200, {
      note: { id: `n${notes.length}`, body: parsed.data.body },
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
