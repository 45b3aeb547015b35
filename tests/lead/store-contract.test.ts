import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { getStore } from '@netlify/blobs';
import { BlobsServer } from '@netlify/blobs/server';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BlobLeadStore } from '../../src/lead/blob-store.js';
import { openLeadStore } from '../../src/lead/open-store.js';
import { claimSchema } from '../../src/lead/schema.js';
import type { SqlLeadStore } from '../../src/lead/sql-store.js';
import { firstWait, type LeadStore } from '../../src/lead/store.js';
import { tempDir } from '../helpers.js';
import { startPostgres } from './postgres.js';
import { sampleClaim } from './sample.js';

/**
 * One contract, every store: SQLite (a Node host), PostgreSQL (several Node hosts sharing
 * LEAD_STORE_URL) and Netlify Blobs (through the package's own local server, as `netlify dev`
 * runs it). Each test gets a store of its own.
 */
let postgres: Awaited<ReturnType<typeof startPostgres>>;
let blobs: BlobsServer;
let blobsPort = 0;
let made = 0;
const open: LeadStore[] = [];

beforeAll(async () => {
  postgres = await startPostgres();
  blobs = new BlobsServer({ directory: await tempDir('claimsite-blobs-'), token: 'contract' });
  blobsPort = (await blobs.start()).port;
});
afterAll(async () => {
  await blobs?.stop();
  postgres?.stop();
});
afterEach(async () => {
  for (const s of open.splice(0)) await s.close();
});

const stores: Array<[string, () => Promise<LeadStore>]> = [
  [
    'SQLite',
    async () => openLeadStore({ outboxPath: path.join(await tempDir(), 'leads.db') }, () => {}),
  ],
  [
    'PostgreSQL',
    async () => {
      const db = `leads_${process.pid}_${++made}`;
      const admin = new pg.Client({ connectionString: postgres.url() });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${db}`);
      await admin.end();
      return openLeadStore({ outboxPath: '', storeUrl: postgres.url(db) }, () => {});
    },
  ],
  [
    'Netlify Blobs',
    async () =>
      new BlobLeadStore(
        getStore({
          name: `leads-${++made}`,
          siteID: 'site-1',
          token: 'contract',
          edgeURL: `http://localhost:${blobsPort}`,
        }),
      ),
  ],
];

let people = 0;
const lead = (over = {}) => {
  people++;
  return claimSchema.parse(
    sampleClaim({
      email: `Person${people}@Example.ca`,
      phone: `416-555-${String(1000 + people).slice(-4)}`,
      ...over,
    }),
  );
};
const MAX = { maxWaiting: 1000 };

describe.each(stores)('the %s lead store', (name, make) => {
  const store = async () => {
    const s = await make();
    open.push(s);
    return s;
  };

  it('accepts a lead once, and tells where a submission already there stands', async () => {
    const s = await store();
    const a = lead();
    expect(await s.status(a.submissionId)).toBeNull();
    expect(await s.add(firstWait(a, 'CRM down'), MAX)).toBe('added');
    expect(await s.add(firstWait(a, 'CRM down'), MAX)).toBe('waiting');
    expect(await s.status(a.submissionId)).toBe('waiting');
    await s.delivered(a.submissionId, 'c1');
    expect(await s.add(firstWait(a, 'again'), MAX)).toBe('delivered');
    const b = lead();
    await s.add(firstWait(b, 'CRM down'), MAX);
    await s.bury(firstWait(b, 'x'), 'HTTP 422: phone is not valid');
    expect(await s.add(firstWait(b, 'again'), MAX)).toBe('dead');
    expect(await s.counts()).toEqual({ waiting: 0, dead: 1 });
  });

  it('refuses a new lead once the cap of waiting leads is reached, and takes them again when one goes', async () => {
    const s = await store();
    const [a, b, c] = [lead(), lead(), lead()];
    expect(await s.add(firstWait(a, 'down'), { maxWaiting: 2 })).toBe('added');
    expect(await s.add(firstWait(b, 'down'), { maxWaiting: 2 })).toBe('added');
    expect(await s.counts()).toEqual({ waiting: 2, dead: 0 });
    expect(await s.add(firstWait(c, 'down'), { maxWaiting: 2 })).toBe('full');
    expect(await s.status(c.submissionId)).toBeNull();
    await s.delivered(a.submissionId, 'c1');
    expect(await s.counts()).toEqual({ waiting: 1, dead: 0 });
    expect(await s.add(firstWait(c, 'down'), { maxWaiting: 2 })).toBe('added');
  });

  it('keeps what an attempt achieved, and never brings back a lead delivered, dead or dropped', async () => {
    const s = await store();
    const a = lead();
    await s.add(firstWait(a, 'under way', { noteMayExist: true }), MAX);
    await s.keep({ ...firstWait(a, 'still down'), attempts: 2, contactId: 'c9' });
    expect(await s.waiting()).toMatchObject([
      { submissionId: a.submissionId, attempts: 2, contactId: 'c9', reason: 'still down' },
    ]);
    expect((await s.waiting())[0]?.noteMayExist).toBeUndefined();
    await s.delivered(a.submissionId, 'c9');
    await s.keep({ ...firstWait(a, 'a late attempt'), attempts: 3 });
    await s.bury(firstWait(a, 'a late attempt'), 'refused');
    expect(await s.status(a.submissionId)).toBe('delivered');
    const b = lead();
    await s.add(firstWait(b, 'down'), MAX);
    expect(await s.drop(b.submissionId)).toBe(true);
    await s.keep({ ...firstWait(b, 'a late attempt'), attempts: 1 });
    expect(await s.status(b.submissionId)).toBeNull();
    expect(await s.waiting()).toEqual([]);
  });

  it('gives the waiting leads oldest first, a page at a time, and only those due when asked', async () => {
    const s = await store();
    const t0 = Date.parse('2026-11-20T10:00:00.000Z');
    const leads = Array.from({ length: 5 }, () => lead());
    // Added newest first: the order is the time received, not the order written.
    for (const [i, l] of leads.entries())
      await s.add(
        firstWait(l, 'down', { retryAt: i % 2 ? Date.now() + 3_600_000 : t0 }, t0 + (4 - i) * 1000),
        MAX,
      );
    const ids = leads.map((l) => l.submissionId).reverse();
    expect((await s.waiting()).map((e) => e.submissionId)).toEqual(ids);
    const first = await s.waiting({ limit: 2 });
    expect(first.map((e) => e.submissionId)).toEqual(ids.slice(0, 2));
    const last = first.at(-1);
    const next = await s.waiting({
      limit: 2,
      after: { receivedAt: last?.receivedAt ?? '', submissionId: last?.submissionId ?? '' },
    });
    expect(next.map((e) => e.submissionId)).toEqual(ids.slice(2, 4));
    const due = await s.waiting({ dueBy: new Date().toISOString() });
    expect(due.map((e) => e.submissionId)).toEqual(
      leads
        .filter((_, i) => i % 2 === 0)
        .map((l) => l.submissionId)
        .reverse(),
    );
  });

  it('keeps nothing personal of a delivered lead: its id and status only', async () => {
    const s = await store();
    const a = lead();
    await s.add(firstWait(a, 'down'), MAX);
    expect(await s.find({ email: a.email })).toHaveLength(1);
    await s.delivered(a.submissionId, 'c1');
    expect(await s.find({ email: a.email })).toEqual([]);
    expect(await s.find({ phone: a.phone })).toEqual([]);
    expect(await s.find({ submissionId: a.submissionId })).toEqual([]);
    expect(await s.status(a.submissionId)).toBe('delivered');
    expect(await s.counts()).toEqual({ waiting: 0, dead: 0 });
  });

  it('moves a lead to the dead letters with the reason, and drops one', async () => {
    const s = await store();
    const a = lead();
    await s.add(firstWait(a, 'down'), MAX);
    await s.keep({ ...firstWait(a, 'down'), contactId: 'c7' });
    const [entry] = await s.waiting();
    await s.bury(entry as NonNullable<typeof entry>, 'contact: HTTP 422: phone is not valid');
    expect(await s.waiting()).toEqual([]);
    expect(await s.dead()).toMatchObject([
      {
        submissionId: a.submissionId,
        reason: 'contact: HTTP 422: phone is not valid',
        contactId: 'c7',
        lead: { email: a.email },
      },
    ]);
    expect(await s.find({ submissionId: a.submissionId })).toMatchObject([{ kind: 'dead' }]);
    expect(await s.drop(a.submissionId)).toBe(true);
    expect(await s.dead()).toEqual([]);
    expect(await s.drop(a.submissionId)).toBe(false);
    expect(await s.drop('no-such-lead-0000')).toBe(false);
  });

  it('finds and forgets a person by e-mail in any case or phone in any format, and nobody else', async () => {
    const s = await store();
    const marie = lead({ email: 'Marie@Example.ca', phone: '416-555-0199' });
    const again = lead({ email: 'marie.other@example.ca', phone: '+1 (416) 555 0199' });
    const other = lead({ email: 'paul@example.ca', phone: '613-555-0100' });
    for (const l of [marie, again, other]) await s.add(firstWait(l, 'down'), MAX);
    await s.bury(firstWait(again, 'x'), 'refused');
    expect(
      (await s.find({ email: ' MARIE@example.CA ' })).map((r) => r.entry.submissionId),
    ).toEqual([marie.submissionId]);
    const byPhone = await s.find({ phone: '4165550199' });
    expect(byPhone.map((r) => [r.kind, r.entry.submissionId]).sort()).toEqual(
      [
        ['dead', again.submissionId],
        ['waiting', marie.submissionId],
      ].sort(),
    );
    expect(await s.forget({})).toBe(0);
    expect(await s.forget({ email: 'marie@example.ca', phone: '(416) 555-0199' })).toBe(2);
    expect(await s.find({ phone: '416 555 0199' })).toEqual([]);
    expect((await s.waiting()).map((e) => e.submissionId)).toEqual([other.submissionId]);
    expect(await s.dead()).toEqual([]);
  });

  it('deletes the dead letters that died before a time, and only those', async () => {
    const s = await store();
    const a = lead();
    await s.add(firstWait(a, 'down'), MAX);
    await s.bury(firstWait(a, 'x'), 'refused');
    expect(await s.expire(new Date(Date.now() - 60_000).toISOString())).toBe(0);
    expect(await s.dead()).toHaveLength(1);
    expect(await s.expire(new Date(Date.now() + 60_000).toISOString())).toBe(1);
    expect(await s.dead()).toEqual([]);
    expect(await s.counts()).toEqual({ waiting: 0, dead: 0 });
  });

  it('lets one drain run at a time: a scheduled one gives way, leads retry waits', async () => {
    const s = await store();
    let release = () => {};
    const first = s.exclusive(() => new Promise<string>((r) => (release = () => r('first'))), {
      wait: true,
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(await s.exclusive(async () => 'second', { wait: false })).toBeNull();
    const third = s.exclusive(async () => 'third', { wait: true });
    release();
    expect(await first).toBe('first');
    expect(await third).toBe('third');
  });

  it("keeps a delivery's later steps: the fields refused, the opportunity, the enrolment", async () => {
    const s = await store();
    const a = lead();
    await s.add(firstWait(a, 'under way', { noteMayExist: true }), MAX);
    await s.keep({
      ...firstWait(a, 'note: HTTP 503', { contactId: 'c1', noteMayExist: true }),
      refused: ['phone'],
      opportunityId: 'op1',
      enrolled: true,
    });
    expect(await s.waiting()).toMatchObject([
      { contactId: 'c1', refused: ['phone'], opportunityId: 'op1', enrolled: true },
    ]);
  });

  it('counts each accepted lead once, with nothing personal, after its personal data is gone', async () => {
    const s = await store();
    const since = new Date(Date.now() - 1000).toISOString();
    const ad = lead({
      attribution: {
        utm_source: 'google',
        utm_medium: 'cpc',
        gclid: 'Cj0-click',
        landing_page: '/toronto/',
      },
    });
    const typed = lead({ city: 'Ottawa', estimatedValue: '500k_1m' });
    const full = lead();
    await s.add(firstWait(ad, 'down'), MAX);
    await s.add(firstWait(ad, 'again'), MAX);
    await s.add(firstWait(typed, 'down'), MAX);
    // Netlify Blobs' cap reads the count a drain last made.
    await s.counts();
    expect(await s.add(firstWait(full, 'down'), { maxWaiting: 2 })).toBe('full');
    await s.delivered(ad.submissionId, 'c1');
    await s.forget({ email: typed.email });
    const counted = await s.counted(since);
    expect(counted).toHaveLength(2);
    const byId = Object.fromEntries(counted.map((c) => [c.submissionId, c]));
    expect(byId[ad.submissionId]).toMatchObject({
      status: 'delivered',
      form: 'questionnaire',
      city: 'Toronto',
      province: 'ON',
      claimType: 'residential',
      lossRange: '100k_250k',
      first: { source: 'google', medium: 'cpc' },
      last: { source: 'google', medium: 'cpc' },
    });
    expect(byId[typed.submissionId]).toMatchObject({
      status: 'dropped',
      city: 'Ottawa',
      lossRange: '500k_1m',
      first: { source: 'direct', medium: '(none)' },
    });
    const text = JSON.stringify(counted);
    for (const personal of [
      ad.email,
      ad.phone,
      ad.fullName,
      ad.address,
      'Cj0-click',
      ad.damageDescription,
    ])
      expect(text).not.toContain(personal);
    expect(await s.counted(new Date(Date.now() + 60_000).toISOString())).toEqual([]);
  });

  it('gives an alert condition to one caller an hour, of many at once; one given back is taken again', async () => {
    const s = await store();
    // Netlify's service makes a conditional write atomic; the package's local server checks,
    // then writes, so many at once are asked one after another there.
    const claims =
      name === 'Netlify Blobs'
        ? [await s.claimAlert('auth', 60 * 60_000), await s.claimAlert('auth', 60 * 60_000)]
        : await Promise.all(Array.from({ length: 8 }, () => s.claimAlert('auth', 60 * 60_000)));
    const taken = claims.filter((c) => c !== null);
    expect(taken).toHaveLength(1);
    expect(await s.claimAlert('auth', 60 * 60_000)).toBeNull();
    // Another condition is its own.
    expect(await s.claimAlert('disk-full', 60 * 60_000)).not.toBeNull();
    // The sending failed: given back, the next asking takes it.
    await s.releaseAlert(taken[0] as NonNullable<(typeof taken)[0]>);
    expect(await s.claimAlert('auth', 60 * 60_000)).not.toBeNull();
    // Past its time, it is taken again.
    await new Promise((r) => setTimeout(r, 20));
    expect(await s.claimAlert('auth', 10)).not.toBeNull();
  });

  it('keeps when each alert was last sent, and takes a probe write', async () => {
    const s = await store();
    expect(await s.alertState()).toEqual({});
    await s.saveAlertState({ waiting: '2026-11-20T10:00:00.000Z' });
    await s.saveAlertState({
      waiting: '2026-11-20T11:00:00.000Z',
      auth: '2026-11-20T10:30:00.000Z',
    });
    expect(await s.alertState()).toEqual({
      waiting: '2026-11-20T11:00:00.000Z',
      auth: '2026-11-20T10:30:00.000Z',
    });
    await expect(s.check()).resolves.toBeUndefined();
  });
});

// Netlify's functions have no process another can ask after: their lease only runs out.
describe.each(stores.filter(([name]) => name !== 'Netlify Blobs'))(
  "the %s store's drain lease",
  (_, make) => {
    it("takes over at once the lease of a holder of this host that is gone, never a live one's", async () => {
      const s = (await make()) as SqlLeadStore;
      open.push(s);
      const db = await s.db();
      const { holderOf } = await import('../../src/lead/lease-holder.js');
      const hold = (host: string, pid: number) =>
        db.batch([
          {
            sql: `UPDATE lead_drain SET holder = 'other', expires_at = ?, host = ?, pid = ?
                WHERE id = 1`,
            params: [Date.now() + 30_000, host, pid],
          },
        ]);
      // The test runner's parent lives: its lease holds.
      await hold(holderOf().host, process.ppid);
      expect(await s.exclusive(async () => 'taken', { wait: false })).toBeNull();
      // Another host's process cannot be asked after: its lease holds until it runs out.
      const gone = spawnSync(process.execPath, ['-e', '']).pid ?? 0;
      await hold('another-host', gone);
      expect(await s.exclusive(async () => 'taken', { wait: false })).toBeNull();
      // A process of this host that is gone: taken over at once.
      await hold(holderOf().host, gone);
      expect(await s.exclusive(async () => 'taken', { wait: false })).toBe('taken');
    });
  },
);
