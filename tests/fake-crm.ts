import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { z } from 'zod';

/**
 * A stand-in for GoHighLevel on loopback that keeps its published contract (the OpenAPI spec in
 * GoHighLevel/highlevel-api-docs, apps/contacts.json and apps/locations.json, and its rate-limit
 * documentation):
 *
 * - v2 at `/contacts/upsert`, `/contacts/`, `/contacts/search`, `/contacts/search/duplicate`,
 *   `/contacts/{id}`, `/contacts/{id}/notes` (POST and GET), `/contacts/{id}/tags` (POST),
 *   `/contacts/{id}/workflow/{workflowId}` (POST), `/locations/{locationId}/customFields` (GET
 *   and POST, by `model`), `/opportunities/search` (GET), `/opportunities/` (POST),
 *   `/opportunities/pipelines` (GET) and `/workflows/` (GET); a Bearer token;
 *   `Version: 2021-07-28`; `locationId` required; a body field it does not know refused with 422
 *   `{statusCode, message: ["property x should not exist"], error}`;
 * - each route's scope, as its `security` names it (`contacts.write`, `contacts.readonly`,
 *   `locations/customFields.readonly`, `locations/customFields.write`, `opportunities.readonly`,
 *   `opportunities.write`, `workflows.readonly`): a token without it is answered 401 "The token is
 *   not authorized for this scope." (GoHighLevel's answer, quoted in highlevel-api-docs issue
 *   #217); a location the token is not for, 403;
 * - upsert's `tags` "will overwrite all current tags associated with the contact" (UpsertContactDto),
 *   and `POST /contacts/{id}/tags` adds to them. Every other field an upsert sends replaces the
 *   contact's, an empty string included: UpsertContactDto marks them `nullable` and promises
 *   nothing about empty values, so the fake keeps the harshest reading;
 * - the duplicate search (`GET /contacts/search/duplicate?locationId&email&number`) finds the
 *   contact the location's duplicate rule matches; its answer is undocumented (the spec's 200 has
 *   no schema): the fake answers `{contact}` (GetContectByIdSchema) or `{contact: null}`;
 * - opportunities (apps/opportunities.json): CreateDto (`pipelineId`, `locationId`, `name`,
 *   `status`, `contactId` required; `pipelineStageId`, `monetaryValue`, `assignedTo`,
 *   `customFields` by `id` or `key`), answered 201 `{opportunity}`; a pipeline, stage or contact
 *   the location lacks is refused with 400 (the spec documents 400 and not its words); search by
 *   `location_id` (required), `pipeline_id`, `pipeline_stage_id`, `contact_id`, `status` (`all`
 *   or none for every status) and `limit` (at most 100, 20 by default), answered
 *   `{opportunities, meta: {total}}`; the pipelines with their stages;
 * - workflows (apps/workflows.json, apps/contacts.json): the location's workflows listed, and
 *   `POST /contacts/{contactId}/workflow/{workflowId}` (CreateWorkflowDto: `eventStartTime`
 *   only; scope `contacts.write`) answered 200 `{succeded: true}` (sic), each enrolment kept;
 *   an unknown workflow or contact 400;
 * - custom fields: the typed schemas (TextField, LargeTextField, ...) require `id`; a value sent
 *   by `key` alone is accepted and ignored, as is one naming an id the location does not have
 *   (the spec says nothing of either; GoHighLevel answers 200 and stores nothing). A contact keeps
 *   its values as `customFields: [{id, value}]`, as `GET /contacts/{id}` gives them, and an upsert
 *   changes only the ones it sends;
 * - the location's custom fields, listed (CustomFieldsListSuccessfulResponseDto) and created
 *   (CreateCustomFieldsDTO: `name` and `dataType` required). The spec does not say how a field's
 *   `fieldKey` is made from its name; the fake makes `contact.` and the name in lower case with
 *   runs of other characters as `_` (its example: name "pincode", fieldKey "contact.pincode"), and
 *   refuses a second field of the same key with 400;
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
  | { drop: true }
  /** No fault for this call: the next fault is for the call after it. */
  | { pass: true };

const str = z.string();
/** Any of the typed custom field schemas: `id` (required there), `key`, and the value. */
const customField = z
  .strictObject({
    id: str.optional(),
    key: str.optional(),
    field_value: z.union([str, z.number(), z.array(str), z.record(str, z.unknown())]),
  })
  .refine((f) => f.id !== undefined || f.key !== undefined, 'id should not be empty');
const contactV2 = z.strictObject({
  locationId: str,
  firstName: str.optional(),
  lastName: str.optional(),
  email: str.optional(),
  phone: str.optional(),
  address1: str.optional(),
  city: str.optional(),
  state: str.optional(),
  postalCode: str.optional(),
  country: str.optional(),
  tags: z.array(str).optional(),
  source: str.optional(),
  customFields: z.array(customField).optional(),
});
const tagsBody = z.strictObject({ tags: z.array(str) });
/** CreateCustomFieldsDTO, with apps/custom-fields.json's list of data types. */
const DATA_TYPES = [
  'TEXT',
  'LARGE_TEXT',
  'NUMERICAL',
  'PHONE',
  'MONETORY',
  'CHECKBOX',
  'SINGLE_OPTIONS',
  'MULTIPLE_OPTIONS',
  'DATE',
  'TEXTBOX_LIST',
  'FILE_UPLOAD',
  'RADIO',
] as const;
const createField = z.strictObject({
  name: str.min(1),
  dataType: z.enum(DATA_TYPES),
  placeholder: str.optional(),
  acceptedFormat: z.array(str).optional(),
  isMultipleFile: z.boolean().optional(),
  maxNumberOfFiles: z.number().optional(),
  textBoxListOptions: z.array(z.unknown()).optional(),
  position: z.number().optional(),
  model: z.enum(['contact', 'opportunity']).optional(),
});
const contactV1 = z.strictObject({
  firstName: str.optional(),
  lastName: str.optional(),
  email: str.optional(),
  phone: str.optional(),
  address1: str.optional(),
  tags: z.array(str).optional(),
  source: str.optional(),
  customField: z.record(str, str).optional(),
});
/** CreateDto of apps/opportunities.json. */
const createOpportunity = z.strictObject({
  pipelineId: str,
  locationId: str,
  name: str,
  pipelineStageId: str.optional(),
  status: z.enum(['open', 'won', 'lost', 'abandoned', 'all']),
  contactId: str,
  monetaryValue: z.number().optional(),
  assignedTo: str.optional(),
  customFields: z.array(customField).optional(),
});
/** CreateWorkflowDto of apps/contacts.json. */
const enrolBody = z.strictObject({ eventStartTime: str.optional() });
const noteV2 = z.strictObject({ body: str.min(1), userId: str.optional() });
const noteV1 = z.strictObject({ body: str.min(1) });

/** Every scope of the routes the fake serves: a Private Integration given all the leads need. */
export const ALL_SCOPES = [
  'contacts.readonly',
  'contacts.write',
  'locations/customFields.readonly',
  'locations/customFields.write',
  'opportunities.readonly',
  'opportunities.write',
  'workflows.readonly',
] as const;

/** A pipeline of the location, with its stages (PipelinesResponseSchema). */
export interface FakePipeline {
  id: string;
  name: string;
  stages: Array<{ id: string; name: string }>;
}

/** The location's pipeline and workflow by default: what a sub-account set up for leads has. */
export const DEFAULT_PIPELINE: FakePipeline = {
  id: 'pl_claims',
  name: 'Claims',
  stages: [
    { id: 'st_new', name: 'New lead' },
    { id: 'st_contacted', name: 'Contacted' },
    { id: 'st_signed', name: 'Signed' },
  ],
};
export const DEFAULT_WORKFLOW = { id: 'wf_speed', name: 'Speed to lead', status: 'published' };

/** An opportunity as the fake keeps it (SearchOpportunitiesResponseSchema's fields). */
export interface FakeOpportunity {
  id: string;
  name: string;
  pipelineId: string;
  pipelineStageId?: string;
  status: string;
  contactId: string;
  locationId: string;
  monetaryValue?: number;
  customFields: Array<{ id: string; fieldValue: unknown }>;
  createdAt: string;
}

/** A custom field of the location, as the listing gives it. */
export interface FakeField {
  id: string;
  name: string;
  fieldKey: string;
  dataType: string;
  model: 'contact' | 'opportunity';
}

export type Model = FakeField['model'];

export interface FakeCrmOptions {
  api: 'v1' | 'v2';
  token?: string;
  locationId?: string;
  /** The token's scopes; by default every one of ALL_SCOPES. */
  scopes?: readonly string[];
  /** The location's custom fields at the start, by name (of contacts by default); none by default. */
  fields?: ReadonlyArray<{ name: string; dataType?: string; model?: Model }>;
  /** The location's pipelines; by default DEFAULT_PIPELINE. */
  pipelines?: readonly FakePipeline[];
  /** The location's workflows; by default DEFAULT_WORKFLOW. */
  workflows?: ReadonlyArray<{ id: string; name: string; status: string }>;
  /** The location's "Allow Duplicate Contact" setting (v2). Default: allowed, the riskier case. */
  allowDuplicates?: boolean;
  /** Requests a location may make per window; GoHighLevel's burst limit is 100 per 10 s. */
  burstLimit?: number;
  burstWindowMs?: number;
  /**
   * Texts every error answer quotes, as GoHighLevel's validation echoes what it was sent: each
   * refusal's messages end with them (the person's e-mail, phone, name, in any form).
   */
  quote?: readonly string[];
}

type Kind =
  | 'contact'
  | 'upsert'
  | 'search'
  | 'get-contact'
  | 'note'
  | 'notes'
  | 'tags'
  | 'fields'
  | 'create-field'
  | 'duplicate'
  | 'opportunities'
  | 'opportunity'
  | 'pipelines'
  | 'enrol'
  | 'workflows';

/** The scope each route's `security` names. */
const SCOPE: Record<Kind, string> = {
  contact: 'contacts.write',
  upsert: 'contacts.write',
  search: 'contacts.readonly',
  'get-contact': 'contacts.readonly',
  note: 'contacts.write',
  notes: 'contacts.readonly',
  tags: 'contacts.write',
  fields: 'locations/customFields.readonly',
  'create-field': 'locations/customFields.write',
  duplicate: 'contacts.readonly',
  opportunities: 'opportunities.readonly',
  opportunity: 'opportunities.write',
  pipelines: 'opportunities.readonly',
  enrol: 'contacts.write',
  workflows: 'workflows.readonly',
};

/** Which injected faults a route takes: tests say "the contact write", "the opportunity", ... */
type FaultGroup = 'contact' | 'lookup' | 'note' | 'tags' | 'fields' | 'opportunity' | 'workflow';
const GROUP: Record<Kind, FaultGroup> = {
  contact: 'contact',
  upsert: 'contact',
  search: 'lookup',
  'get-contact': 'lookup',
  duplicate: 'lookup',
  note: 'note',
  notes: 'note',
  tags: 'tags',
  fields: 'fields',
  'create-field': 'fields',
  opportunities: 'opportunity',
  opportunity: 'opportunity',
  pipelines: 'opportunity',
  enrol: 'workflow',
  workflows: 'workflow',
};

/** A field's key as the fake makes it from its name (the spec does not say how GoHighLevel does). */
export const fieldKeyOf = (name: string, model: Model = 'contact') =>
  `${model}.${name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '_')
    .replace(/^_+|_+$/g, '')}`;

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
  const scopes = new Set(options.scopes ?? ALL_SCOPES);
  const contacts = new Map<string, Record<string, unknown>>();
  const notes: Array<{ contactId: string; body: string }> = [];
  /** Every call: its method, path (with its query), the status answered, and the JSON body sent. */
  const calls: Array<{ method: string; path: string; status: number; body?: unknown }> = [];
  const faults: Record<FaultGroup, Fault[]> = {
    contact: [],
    lookup: [],
    note: [],
    tags: [],
    fields: [],
    opportunity: [],
    workflow: [],
  };
  const fields: FakeField[] = [];
  let nextField = 1;
  const addField = (name: string, dataType = 'TEXT', model: Model = 'contact') => {
    const field: FakeField = {
      id: `fld${String(nextField++).padStart(3, '0')}`,
      name,
      fieldKey: fieldKeyOf(name, model),
      dataType,
      model,
    };
    fields.push(field);
    return field;
  };
  for (const f of options.fields ?? []) addField(f.name, f.dataType, f.model);
  const pipelines = options.pipelines ?? [DEFAULT_PIPELINE];
  const workflows = options.workflows ?? [DEFAULT_WORKFLOW];
  const opportunities: FakeOpportunity[] = [];
  const enrolments: Array<{ contactId: string; workflowId: string; at: number }> = [];
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
  /** An error answer with the texts of `quote` added to its messages. */
  const quoting = (body: unknown) => {
    const b = body as { message?: string | string[] } | null;
    if (!options.quote?.length || !b || typeof b !== 'object') return body;
    const said = Array.isArray(b.message) ? b.message : b.message ? [b.message] : [];
    return { ...b, message: [...said, ...options.quote.map((q) => `value "${q}" was refused`)] };
  };
  const send = (
    res: ServerResponse,
    status: number,
    body: unknown,
    headers: Record<string, string> = {},
  ) => {
    res
      .writeHead(status, { 'Content-Type': 'application/json', ...rateHeaders(), ...headers })
      .end(JSON.stringify(status >= 400 ? quoting(body) : body));
  };

  const route = (
    method: string,
    path: string,
  ): { kind: Kind; id?: string; location?: string; workflowId?: string } | null => {
    if (options.api === 'v1') {
      if (method === 'POST' && path === '/v1/contacts/') return { kind: 'contact' };
      const note = /^\/v1\/contacts\/([^/]+)\/notes\/$/.exec(path);
      if (method === 'POST' && note) return { kind: 'note', id: decodeURIComponent(note[1] ?? '') };
      return null;
    }
    if (method === 'POST' && path === '/contacts/upsert') return { kind: 'upsert' };
    if (method === 'POST' && path === '/contacts/') return { kind: 'contact' };
    if (method === 'POST' && path === '/contacts/search') return { kind: 'search' };
    if (method === 'GET' && path === '/contacts/search/duplicate') return { kind: 'duplicate' };
    if (method === 'GET' && path === '/opportunities/search') return { kind: 'opportunities' };
    if (method === 'GET' && path === '/opportunities/pipelines') return { kind: 'pipelines' };
    if (method === 'POST' && path === '/opportunities/') return { kind: 'opportunity' };
    if (method === 'GET' && path === '/workflows/') return { kind: 'workflows' };
    const enrol = /^\/contacts\/([^/]+)\/workflow\/([^/]+)$/.exec(path);
    if (method === 'POST' && enrol)
      return {
        kind: 'enrol',
        id: decodeURIComponent(enrol[1] ?? ''),
        workflowId: decodeURIComponent(enrol[2] ?? ''),
      };
    const fieldsOf = /^\/locations\/([^/]+)\/customFields$/.exec(path);
    if (fieldsOf) {
      const location = decodeURIComponent(fieldsOf[1] ?? '');
      if (method === 'GET') return { kind: 'fields', location };
      if (method === 'POST') return { kind: 'create-field', location };
    }
    const sub = /^\/contacts\/([^/]+)\/(notes|tags)$/.exec(path);
    if (sub) {
      const id = decodeURIComponent(sub[1] ?? '');
      if (sub[2] === 'tags') return method === 'POST' ? { kind: 'tags', id } : null;
      if (method === 'POST') return { kind: 'note', id };
      if (method === 'GET') return { kind: 'notes', id };
    }
    const one = /^\/contacts\/([^/]+)$/.exec(path);
    if (one && method === 'GET' && one[1] !== 'search')
      return { kind: 'get-contact', id: decodeURIComponent(one[1] ?? '') };
    return null;
  };

  /**
   * An upsert's or a create's custom fields into the contact's values: by id only, an id the
   * location has; a key alone, or an id it does not have, is ignored.
   */
  const storedFields = (
    sent: Array<{ id?: string; key?: string; field_value: unknown }> | undefined,
    before: Array<{ id: string; value: unknown }> = [],
    model: Model = 'contact',
  ) => {
    const values = new Map(before.map((f) => [f.id, f.value]));
    for (const f of sent ?? []) {
      // An opportunity's field may be named by key ("Pass either `id` or `key`", CreateDto).
      const field = fields.find(
        (x) =>
          x.model === model &&
          (f.id ? x.id === f.id : model === 'opportunity' && x.fieldKey === `${model}.${f.key}`),
      );
      if (field) values.set(field.id, f.field_value);
    }
    return [...values].map(([id, value]) => ({ id, value }));
  };

  /** The contact the location's duplicate rule matches: by e-mail first, then by phone. */
  const matching = (c: { email?: string; phone?: string }) =>
    [...contacts].find(([, x]) => c.email && x.email === c.email) ??
    [...contacts].find(([, x]) => c.phone && x.phone === c.phone);

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const path = new URL(req.url ?? '/', 'http://fake').pathname;
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    const sent = (() => {
      try {
        return text ? (JSON.parse(text) as unknown) : undefined;
      } catch {
        return text;
      }
    })();
    const record = (status: number) =>
      calls.push({
        method: req.method ?? '',
        path: req.url ?? '',
        status,
        ...(sent === undefined ? {} : { body: sent }),
      });

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
    if (options.api === 'v2' && !scopes.has(SCOPE[r.kind])) {
      record(401);
      return send(res, 401, {
        statusCode: 401,
        message: 'The token is not authorized for this scope.',
      });
    }
    if (r.location !== undefined && r.location !== locationId) {
      record(403);
      return send(res, 403, {
        statusCode: 403,
        message: 'The token does not have access to this location.',
      });
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
    const fault =
      faults[GROUP[r.kind]].shift() ??
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
    const invalid = (issues: z.core.$ZodIssue[]) => {
      record(422);
      return send(res, 422, {
        statusCode: 422,
        message: validationMessages(issues),
        error: 'Unprocessable Entity',
      });
    };
    const query = new URL(req.url ?? '/', 'http://fake').searchParams;
    if (r.kind === 'fields') {
      const model = query.get('model') ?? 'all';
      return answer(200, {
        customFields: fields
          .filter((f) => model === 'all' || f.model === model)
          .map((f) => ({ ...f, locationId, position: 0 })),
      });
    }
    if (r.kind === 'create-field') {
      const parsed = createField.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const model = parsed.data.model ?? 'contact';
      if (fields.some((f) => f.fieldKey === fieldKeyOf(parsed.data.name, model))) {
        record(400);
        return send(res, 400, { statusCode: 400, message: 'Custom field already exists' });
      }
      const field = addField(parsed.data.name, parsed.data.dataType, model);
      return answer(201, { customField: { ...field, locationId, position: 0 } });
    }
    const other = query.get('locationId') ?? query.get('location_id');
    if (
      (r.kind === 'duplicate' ||
        r.kind === 'opportunities' ||
        r.kind === 'pipelines' ||
        r.kind === 'workflows') &&
      other !== locationId
    ) {
      if (other === null) {
        const name = r.kind === 'opportunities' ? 'location_id' : 'locationId';
        record(422);
        return send(res, 422, {
          statusCode: 422,
          message: [`${name} should not be empty`],
          error: 'Unprocessable Entity',
        });
      }
      record(403);
      return send(res, 403, {
        statusCode: 403,
        message: 'The token does not have access to this location.',
      });
    }
    if (r.kind === 'duplicate') {
      const found = matching({
        email: query.get('email') ?? undefined,
        phone: query.get('number') ?? undefined,
      });
      return answer(200, { contact: found ? { id: found[0], ...found[1] } : null });
    }
    if (r.kind === 'pipelines')
      return answer(200, { pipelines: pipelines.map((p) => ({ ...p, locationId })) });
    if (r.kind === 'workflows')
      return answer(200, { workflows: workflows.map((w) => ({ ...w, locationId, version: 1 })) });
    if (r.kind === 'opportunities') {
      const status = query.get('status');
      const list = opportunities.filter(
        (o) =>
          (!query.get('pipeline_id') || o.pipelineId === query.get('pipeline_id')) &&
          (!query.get('pipeline_stage_id') ||
            o.pipelineStageId === query.get('pipeline_stage_id')) &&
          (!query.get('contact_id') || o.contactId === query.get('contact_id')) &&
          (!status || status === 'all' || o.status === status),
      );
      const limit = Math.min(100, Number(query.get('limit') ?? 20) || 20);
      return answer(200, {
        opportunities: list.slice(0, limit),
        meta: { total: list.length, currentPage: 1 },
      });
    }
    if (r.kind === 'opportunity') {
      const parsed = createOpportunity.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const o = parsed.data;
      const pipeline = pipelines.find((p) => p.id === o.pipelineId);
      const refusal = !pipeline
        ? 'Pipeline not found'
        : o.pipelineStageId && !pipeline.stages.some((st) => st.id === o.pipelineStageId)
          ? 'Pipeline stage not found'
          : !contacts.has(o.contactId)
            ? 'Contact not found'
            : null;
      if (o.locationId !== locationId) {
        record(403);
        return send(res, 403, {
          statusCode: 403,
          message: 'The token does not have access to this location.',
        });
      }
      if (refusal) {
        record(400);
        return send(res, 400, { statusCode: 400, message: refusal });
      }
      const opportunity: FakeOpportunity = {
        id: `op${opportunities.length + 1}`,
        name: o.name,
        pipelineId: o.pipelineId,
        ...(o.pipelineStageId ? { pipelineStageId: o.pipelineStageId } : {}),
        status: o.status,
        contactId: o.contactId,
        locationId,
        ...(o.monetaryValue !== undefined ? { monetaryValue: o.monetaryValue } : {}),
        customFields: storedFields(o.customFields, [], 'opportunity').map((f) => ({
          id: f.id,
          fieldValue: f.value,
        })),
        createdAt: new Date().toISOString(),
      };
      opportunities.push(opportunity);
      return answer(201, { opportunity });
    }
    if (r.kind === 'search') {
      const parsed = z
        .object({ locationId: str, pageLimit: z.number().optional() })
        .safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      if (parsed.data.locationId !== locationId) {
        record(403);
        return send(res, 403, {
          statusCode: 403,
          message: 'The token does not have access to this location.',
        });
      }
      const list = [...contacts].map(([id, c]) => ({ id, ...c }));
      return answer(200, {
        contacts: list.slice(0, parsed.data.pageLimit ?? 20),
        total: list.length,
      });
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
      const { customFields: sentFields, ...data } = parsed.data as Record<string, unknown> & {
        email?: string;
        phone?: string;
        customFields?: Array<{ id?: string; field_value: unknown }>;
      };
      if (options.api === 'v2' && data.locationId !== locationId) {
        record(403);
        return send(res, 403, {
          statusCode: 403,
          message: 'The token does not have access to this location.',
        });
      }
      const existing = matching(data);
      const v2Fields = (before?: Record<string, unknown>) =>
        options.api === 'v2'
          ? {
              customFields: storedFields(
                sentFields,
                before?.customFields as Array<{ id: string; value: unknown }> | undefined,
              ),
            }
          : {};
      if (r.kind === 'upsert') {
        if (existing) {
          // The fields sent replace the contact's: `tags` among them, when sent.
          const updated = { ...existing[1], ...data, ...v2Fields(existing[1]) };
          contacts.set(existing[0], updated);
          return answer(200, {
            new: false,
            contact: { id: existing[0], ...updated },
            traceId: 't',
          });
        }
        const id = `c${nextId++}`;
        const created = { tags: [], ...data, ...v2Fields() };
        contacts.set(id, created);
        return answer(200, { new: true, contact: { id, ...created }, traceId: 't' });
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
      const created = options.api === 'v2' ? { tags: [], ...data, ...v2Fields() } : data;
      contacts.set(id, created);
      return answer(options.api === 'v2' ? 201 : 200, { contact: { id, ...created } });
    }
    const contactId = r.id ?? '';
    const contact = contacts.get(contactId);
    if (!contact) {
      record(400);
      return send(res, 400, { statusCode: 400, message: 'Contact not found' });
    }
    if (r.kind === 'get-contact') return answer(200, { contact: { id: contactId, ...contact } });
    if (r.kind === 'enrol') {
      const parsed = enrolBody.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      if (!workflows.some((w) => w.id === r.workflowId)) {
        record(400);
        return send(res, 400, { statusCode: 400, message: 'Workflow not found' });
      }
      enrolments.push({ contactId, workflowId: r.workflowId ?? '', at: Date.now() });
      return answer(200, { succeded: true });
    }
    if (r.kind === 'tags') {
      const parsed = tagsBody.safeParse(body);
      if (!parsed.success) return invalid(parsed.error.issues);
      const tags = [...new Set([...((contact.tags as string[]) ?? []), ...parsed.data.tags])];
      contact.tags = tags;
      return answer(201, { tags });
    }
    if (r.kind === 'notes') {
      const list = notes
        .filter((n) => n.contactId === contactId)
        .map((n, i) => ({ id: `n${i + 1}`, body: n.body, contactId }));
      return answer(200, { notes: list });
    }
    const parsed = (options.api === 'v2' ? noteV2 : noteV1).safeParse(body);
    if (!parsed.success) return invalid(parsed.error.issues);
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
    /** The location's custom fields. */
    fields,
    opportunities,
    /** Each enrolment of a contact in a workflow, in order. */
    enrolments,
    /** An opportunity's custom field values by their key (`lead_source`). */
    opportunityFieldsOf: (opportunity: FakeOpportunity): Record<string, unknown> =>
      Object.fromEntries(
        opportunity.customFields.map((v) => [
          fields.find((f) => f.id === v.id)?.fieldKey.replace(/^opportunity\./, '') ?? v.id,
          v.fieldValue,
        ]),
      ),
    /** A contact's custom field values by their key (`utm_source`), as a person reads them. */
    fieldsOf: (contactId: string): Record<string, unknown> => {
      const values = (contacts.get(contactId)?.customFields ?? []) as Array<{
        id: string;
        value: unknown;
      }>;
      return Object.fromEntries(
        values.map((v) => [
          fields.find((f) => f.id === v.id)?.fieldKey.replace(/^contact\./, '') ?? v.id,
          v.value,
        ]),
      );
    },
    /** What the operator does in GoHighLevel between two leads: tags a contact by hand. */
    tagByHand: (contactId: string, ...tags: string[]) => {
      const c = contacts.get(contactId);
      if (c) c.tags = [...new Set([...((c.tags as string[]) ?? []), ...tags])];
    },
    fail: (kind: FaultGroup, ...f: Fault[]) => faults[kind].push(...f),
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
    /** Opportunities made more than once for one submission (the id their name ends with). */
    duplicateOpportunities: () => {
      const seen = new Map<string, number>();
      for (const o of opportunities) seen.set(o.name, (seen.get(o.name) ?? 0) + 1);
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
    /** The pipeline, stage and workflow every lead goes to, as an operator sets them. */
    pipelineEnv: (): Record<string, string> => ({
      GHL_PIPELINE_ID: pipelines[0]?.id ?? '',
      GHL_PIPELINE_STAGE_ID: pipelines[0]?.stages[0]?.id ?? '',
      GHL_WORKFLOW_ID: workflows[0]?.id ?? '',
    }),
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
