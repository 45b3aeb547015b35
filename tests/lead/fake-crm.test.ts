import { afterEach, describe, expect, it } from 'vitest';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';

/**
 * The fake CRM keeps GoHighLevel's documented semantics (apps/contacts.json, apps/locations.json,
 * apps/opportunities.json, apps/workflows.json),
 * the ones that would destroy an operator's data if the client forgot them: these tests hold the
 * fake to them, so the client's tests cannot pass against a kinder CRM than the real one.
 */
let crm: FakeCrm;
afterEach(() => crm?.close());

const call = (method: string, path: string, body?: unknown, token = crm.token) =>
  fetch(`${crm.url}${path}`, {
    method,
    headers: {
      Authorization: `Bearer ${token}`,
      Version: '2021-07-28',
      'Content-Type': 'application/json',
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });

describe('the fake GoHighLevel', () => {
  it("replaces a contact's fields with what an upsert sends, empty strings included, and finds it as its duplicate rule does", async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const base = { locationId: crm.locationId, email: 'a@example.ca' };
    await call('POST', '/contacts/upsert', {
      ...base,
      phone: '+14165550199',
      address1: '1 Main St',
    });
    // UpsertContactDto marks these nullable and promises nothing about empty values: the
    // harshest reading, an empty string erasing what the contact had.
    await call('POST', '/contacts/upsert', { ...base, phone: '', address1: '' });
    expect(crm.contacts.get('c1')).toMatchObject({ phone: '', address1: '' });
    const q = (params: string) => call('GET', `/contacts/search/duplicate?${params}`);
    const found = await q(`locationId=${crm.locationId}&email=a%40example.ca`);
    expect(found.status).toBe(200);
    expect(await found.json()).toMatchObject({ contact: { id: 'c1', email: 'a@example.ca' } });
    expect(await (await q(`locationId=${crm.locationId}&email=b%40example.ca`)).json()).toEqual({
      contact: null,
    });
    expect((await q('email=a%40example.ca')).status).toBe(422);
  });

  it('makes opportunities by CreateDto, finds them by contact and pipeline, and enrols contacts in workflows', async () => {
    crm = await startFakeCrm({
      api: 'v2',
      fields: [{ name: 'lead_source', model: 'opportunity' }],
    });
    await call('POST', '/contacts/upsert', { locationId: crm.locationId, email: 'a@example.ca' });
    const opportunity = {
      pipelineId: 'pl_claims',
      locationId: crm.locationId,
      name: 'Ann · Water · sub-1',
      pipelineStageId: 'st_new',
      status: 'open',
      contactId: 'c1',
      monetaryValue: 17500,
      customFields: [{ key: 'lead_source', field_value: 'google / cpc' }],
    };
    const made = await call('POST', '/opportunities/', opportunity);
    expect(made.status).toBe(201);
    expect(crm.opportunityFieldsOf(crm.opportunities[0] as never)).toEqual({
      lead_source: 'google / cpc',
    });
    const { name: _, ...nameless } = opportunity;
    expect((await call('POST', '/opportunities/', nameless)).status).toBe(422);
    expect((await call('POST', '/opportunities/', { ...opportunity, source: 'x' })).status).toBe(
      422,
    );
    expect(
      (await call('POST', '/opportunities/', { ...opportunity, pipelineId: 'pl_x' })).status,
    ).toBe(400);
    expect(
      (await call('POST', '/opportunities/', { ...opportunity, pipelineStageId: 'st_x' })).status,
    ).toBe(400);
    const search = (q: string) =>
      call('GET', `/opportunities/search?location_id=${crm.locationId}&${q}`).then((r) => r.json());
    expect(
      (await search('contact_id=c1&pipeline_id=pl_claims&status=all')).opportunities,
    ).toHaveLength(1);
    expect((await search('contact_id=c2')).opportunities).toHaveLength(0);
    expect((await search('status=won')).opportunities).toHaveLength(0);
    const enrol = await call('POST', '/contacts/c1/workflow/wf_speed', {});
    expect(enrol.status).toBe(200);
    expect(await enrol.json()).toEqual({ succeded: true });
    expect((await call('POST', '/contacts/c1/workflow/wf_none', {})).status).toBe(400);
    expect((await call('POST', '/contacts/c1/workflow/wf_speed', { why: 'x' })).status).toBe(422);
    expect(crm.enrolments.map((e) => e.workflowId)).toEqual(['wf_speed']);
  });

  it('answers the opportunity and workflow routes 401 without their scopes', async () => {
    crm = await startFakeCrm({ api: 'v2', scopes: ['contacts.readonly', 'contacts.write'] });
    for (const [method, path] of [
      ['GET', `/opportunities/search?location_id=${'loc_test_123'}`],
      ['GET', `/opportunities/pipelines?locationId=${'loc_test_123'}`],
      ['POST', '/opportunities/'],
      ['GET', `/workflows/?locationId=${'loc_test_123'}`],
    ] as const) {
      const r = await call(method, path, method === 'POST' ? {} : undefined);
      expect(r.status, path).toBe(401);
      expect((await r.json()).message).toBe('The token is not authorized for this scope.');
    }
  });

  it("overwrites a contact's tags with an upsert's, and adds to them with POST /contacts/{id}/tags", async () => {
    crm = await startFakeCrm({ api: 'v2' });
    const contact = { locationId: crm.locationId, email: 'a@example.ca' };
    await call('POST', '/contacts/upsert', { ...contact, tags: ['lead'] });
    const added = await call('POST', '/contacts/c1/tags', { tags: ['signed-client'] });
    expect(added.status).toBe(201);
    expect(await added.json()).toEqual({ tags: ['lead', 'signed-client'] });
    // An upsert without tags keeps them; one with tags replaces them all.
    await call('POST', '/contacts/upsert', { ...contact, firstName: 'Ann' });
    expect(crm.contacts.get('c1')?.tags).toEqual(['lead', 'signed-client']);
    await call('POST', '/contacts/upsert', { ...contact, tags: ['second lead'] });
    expect(crm.contacts.get('c1')?.tags).toEqual(['second lead']);
  });

  it('stores a custom field sent by an id the location has, and ignores one sent by key alone or by an unknown id', async () => {
    crm = await startFakeCrm({ api: 'v2', fields: [{ name: 'claim_status' }] });
    const id = crm.fields[0]?.id;
    const res = await call('POST', '/contacts/upsert', {
      locationId: crm.locationId,
      email: 'a@example.ca',
      customFields: [
        { key: 'claim_status', field_value: 'by key' },
        { id: 'no-such-field', field_value: 'unknown id' },
        { id, field_value: 'Started' },
      ],
    });
    expect(res.status).toBe(200);
    expect(crm.contacts.get('c1')?.customFields).toEqual([{ id, value: 'Started' }]);
    // A later upsert changes only the fields it sends.
    await call('POST', '/contacts/upsert', { locationId: crm.locationId, email: 'a@example.ca' });
    expect(crm.fieldsOf('c1')).toEqual({ claim_status: 'Started' });
    // Neither an id nor a key: refused as GoHighLevel's validation does.
    const bad = await call('POST', '/contacts/upsert', {
      locationId: crm.locationId,
      email: 'b@example.ca',
      customFields: [{ field_value: 'x' }],
    });
    expect(bad.status).toBe(422);
  });

  it("lists the location's custom fields and creates one by name and data type", async () => {
    crm = await startFakeCrm({ api: 'v2', fields: [{ name: 'estimated_value' }] });
    const listed = await call('GET', `/locations/${crm.locationId}/customFields?model=contact`);
    expect(await listed.json()).toEqual({
      customFields: [
        {
          id: 'fld001',
          name: 'estimated_value',
          fieldKey: 'contact.estimated_value',
          dataType: 'TEXT',
          model: 'contact',
          locationId: crm.locationId,
          position: 0,
        },
      ],
    });
    const made = await call('POST', `/locations/${crm.locationId}/customFields`, {
      name: 'utm_source',
      dataType: 'TEXT',
      model: 'contact',
    });
    expect(made.status).toBe(201);
    expect((await made.json()).customField).toMatchObject({ fieldKey: 'contact.utm_source' });
    // Required fields, known data types, and one field per key.
    for (const body of [
      { name: 'x' },
      { name: 'x', dataType: 'TEXTAREA' },
      { name: 'x', dataType: 'TEXT', key: 'x' },
      { name: 'utm_source', dataType: 'TEXT' },
    ]) {
      const res = await call('POST', `/locations/${crm.locationId}/customFields`, body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
    }
    expect(crm.fields).toHaveLength(2);
  });

  it("answers a token without a route's scope 401, another location 403, another token 401", async () => {
    crm = await startFakeCrm({ api: 'v2', scopes: ['contacts.write'] });
    const refused = await call('GET', `/locations/${crm.locationId}/customFields`);
    expect(refused.status).toBe(401);
    expect(await refused.json()).toEqual({
      statusCode: 401,
      message: 'The token is not authorized for this scope.',
    });
    expect((await call('POST', '/contacts/search', { locationId: crm.locationId })).status).toBe(
      401,
    );
    const all = await startFakeCrm({ api: 'v2' });
    const other = await fetch(`${all.url}/locations/elsewhere/customFields`, {
      headers: { Authorization: `Bearer ${all.token}`, Version: '2021-07-28' },
    });
    expect(other.status).toBe(403);
    const wrong = await fetch(`${all.url}/locations/${all.locationId}/customFields`, {
      headers: { Authorization: 'Bearer pit-other', Version: '2021-07-28' },
    });
    expect(wrong.status).toBe(401);
    await all.close();
  });
});
