import { afterEach, describe, expect, it } from 'vitest';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';

/**
 * The fake CRM keeps GoHighLevel's documented semantics (apps/contacts.json, apps/locations.json),
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
