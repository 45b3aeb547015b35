import { spawn } from 'node:child_process';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { claimSchema } from '../../src/lead/schema.js';
import { firstWait } from '../../src/lead/store.js';
import { type FakeCrm, startFakeCrm } from '../fake-crm.js';
import { BIN, runCliAsync, tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';
import { readStore, type ServeProcess, startServe } from './serve-process.js';

/**
 * Personal data kept only as long as needed (PIPEDA; Québec's Law 25): gone from the store once
 * delivered, dead letters deleted after LEAD_DEAD_LETTER_DAYS, a person's records shown and
 * forgotten on request, and never in a log.
 */
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function serve(env: Record<string, string>): Promise<ServeProcess> {
  const s = await startServe({ dir: await tempDir(), env });
  cleanup.push(() => s.stop());
  return s;
}

async function crmOf(options: Parameters<typeof startFakeCrm>[0]): Promise<FakeCrm> {
  const crm = await startFakeCrm(options);
  cleanup.push(() => crm.close());
  return crm;
}

/** Every byte of the database's files (the write-ahead log and its index too), as one buffer. */
async function storeBytes(db: string): Promise<Buffer> {
  const dir = path.dirname(db);
  const files = (await readdir(dir)).filter((f) => f.startsWith(path.basename(db)));
  expect(files).toContain('leads.db');
  return Buffer.concat(await Promise.all(files.map((f) => readFile(path.join(dir, f)))));
}

const until = async (check: () => Promise<boolean>, ms = 15_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe("a person's data", () => {
  it('leaves the store once delivered, bytes included: its id, contact id and time remain', async () => {
    const crm = await crmOf({ api: 'v2' });
    crm.down(60_000);
    const db = path.join(await tempDir(), 'leads.db');
    const s = await serve({ ...crm.env(), LEAD_OUTBOX_PATH: db, LEAD_RETRY_INTERVAL_MS: '200' });
    const claim = sampleClaim({
      email: 'delivered.person@example.ca',
      fullName: 'Odile Quenneville',
    });
    expect((await s.post(claim)).status).toBe(202);
    expect((await storeBytes(db)).includes('delivered.person@example.ca')).toBe(true);
    crm.down(0);
    await until(() =>
      readStore(db, async (st) => (await st.status(claim.submissionId)) === 'delivered'),
    );
    // The next drain erases what the delivery left in the log, with the server running.
    await until(async () => !(await storeBytes(db)).includes('delivered.person@example.ca'));
    const bytes = await storeBytes(db);
    for (const personal of ['Odile Quenneville', '416-555-0199', '+14165550199', 'burst pipe'])
      expect(bytes.includes(personal), personal).toBe(false);
    const raw = new Database(db, { readonly: true });
    const row = raw
      .prepare('SELECT * FROM leads WHERE submission_id = ?')
      .get(claim.submissionId) as Record<string, unknown>;
    raw.close();
    expect(row).toMatchObject({
      state: 'delivered',
      contact_id: 'c1',
      lead: null,
      email: null,
      phone: null,
    });
    expect(row.received_at).toMatch(/^20\d\d-/);
    // Sent again after the delivery: recognised, not delivered twice.
    expect((await s.post(claim)).status).toBe(200);
    expect(crm.contacts.size).toBe(1);
  });

  it('is shown on request, and forgotten on request: every record, bytes included, the set-aside outbox too', async () => {
    const dir = await tempDir();
    const db = path.join(dir, 'leads.db');
    // What an older version's outbox held, set aside at the upgrade.
    const old = sampleClaim({ email: 'Marie@Example.ca', phone: '(416) 555-0199' });
    const other = sampleClaim({ email: 'paul@example.ca', phone: '613-555-0100' });
    await writeFile(
      path.join(dir, 'leads.jsonl'),
      [old, other]
        .map((lead, i) =>
          JSON.stringify({
            submissionId: lead.submissionId,
            receivedAt: `2026-11-0${i + 1}T10:00:00.000Z`,
            lead,
            reason: 'CRM unreachable',
          }),
        )
        .join('\n'),
    );
    const crm = await crmOf({ api: 'v2' });
    // The older outbox is imported at the first lead; then one lead is refused for good, and
    // one waits while the CRM is down.
    const s = await serve({ ...crm.env(), LEAD_OUTBOX_PATH: db });
    crm.fail('contact', { status: 400, message: ['The contact could not be saved'] });
    const dead = sampleClaim({
      email: 'marie@example.ca',
      phone: '416-555-0199',
      fullName: 'Marie Tremblay',
    });
    expect((await s.post(dead)).status).toBe(202);
    crm.down(60_000);
    const waiting = sampleClaim({
      email: 'm.tremblay@example.ca',
      phone: '+1 416 555 0199',
      fullName: 'Marie Tremblay',
    });
    expect((await s.post(waiting)).status).toBe(202);

    // The access request: everything held, wherever it is.
    const show = await runCliAsync(['leads', 'show', '--phone', '416.555.0199', '--outbox', db]);
    expect(show.code).toBe(0);
    expect(show.stdout).toContain(`3 records held about 416.555.0199 in ${db}:`);
    expect(show.stdout).toContain('Dead letter: the CRM refused it');
    expect(show.stdout).toContain('The contact could not be saved');
    expect(show.stdout).toContain('email: m.tremblay@example.ca');
    expect(show.stdout).toContain('fullName: Marie Tremblay');
    expect(show.stdout).toContain('damageDescription: A burst pipe flooded the basement.');
    const byEmail = await runCliAsync([
      'leads',
      'show',
      '--email',
      'MARIE@example.ca',
      '--outbox',
      db,
    ]);
    expect(byEmail.stdout).toContain('2 records held about MARIE@example.ca');
    expect(byEmail.stdout).toContain('1 line in');

    // The deletion request asks first, then deletes every record and every byte of them.
    const forget = (answer: string) =>
      new Promise<string>((resolve) => {
        const child = spawn(process.execPath, [
          BIN,
          'leads',
          'forget',
          '--email',
          'marie@example.ca',
          '--phone',
          '416 555 0199',
          '--outbox',
          db,
        ]);
        let out = '';
        child.stdout.on('data', (d) => {
          out += d;
        });
        child.stdin.end(`${answer}\n`);
        child.on('close', () => resolve(out));
      });
    expect(await forget('n')).toContain('Nothing forgotten.');
    expect((await storeBytes(db)).includes('m.tremblay@example.ca')).toBe(true);
    const forgot = await forget('y');
    expect(forgot).toContain(
      'Forgot marie@example.ca or 416 555 0199: 3 records and 1 set-aside line deleted.',
    );
    expect(forgot).toContain('delete it there too');
    const bytes = await storeBytes(db);
    for (const personal of [
      'm.tremblay@example.ca',
      'marie@example.ca',
      'Marie@Example.ca',
      'Marie Tremblay',
      '+14165550199',
      '416 555 0199',
      '(416) 555-0199',
    ])
      expect(bytes.includes(personal), personal).toBe(false);
    const aside = (await readdir(dir)).filter((f) => f.includes('.imported-'));
    const asideText = (
      await Promise.all(aside.map((f) => readFile(path.join(dir, f), 'utf8')))
    ).join('');
    expect(asideText).not.toContain('Marie@Example.ca');
    expect(asideText).toContain('paul@example.ca');
    // Nobody else was touched, and the server goes on taking leads.
    expect(
      await readStore(db, async (st) => (await st.waiting()).map((e) => e.lead.email)),
    ).toEqual(['paul@example.ca']);
    expect(
      (await s.post(sampleClaim({ email: 'next@example.ca', phone: '613-555-0111' }))).status,
    ).toBe(202);
  });

  it('is deleted from the dead letters after LEAD_DEAD_LETTER_DAYS, the owner told a few days before', async () => {
    const alerts: string[] = [];
    const hook: Server = createServer(async (req, res) => {
      const chunks: Buffer[] = [];
      for await (const c of req) chunks.push(c as Buffer);
      alerts.push(JSON.parse(Buffer.concat(chunks).toString('utf8')).text);
      res.writeHead(200).end();
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    cleanup.push(() => new Promise((r) => hook.close(r)));
    const db = path.join(await tempDir(), 'leads.db');
    const crm = await crmOf({ api: 'v2' });
    const letters = { expired: 31, expiring: 28, recent: 1 };
    const ids: Record<string, string> = {};
    await readStore(db, async (store) => {
      for (const name of Object.keys(letters)) {
        const lead = claimSchema.parse(
          sampleClaim({ email: `${name}@example.ca`, city: `City ${name}` }),
        );
        ids[name] = lead.submissionId;
        await store.add(firstWait(lead, 'x'), { maxWaiting: 100 });
        await store.bury(firstWait(lead, 'x'), 'HTTP 422: email is invalid');
      }
    });
    // Refused by the CRM that many days ago.
    const raw = new Database(db);
    for (const [name, days] of Object.entries(letters))
      raw
        .prepare('UPDATE leads SET done_at = ? WHERE submission_id = ?')
        .run(new Date(Date.now() - days * 86_400_000).toISOString(), ids[name]);
    raw.close();
    const s = await serve({
      ...crm.env(),
      LEAD_OUTBOX_PATH: db,
      LEAD_RETRY_INTERVAL_MS: '200',
      LEAD_ALERT_WEBHOOK: `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`,
    });
    await until(async () => alerts.some((a) => a.includes('will be deleted')));
    const dead = await readStore(db, (store) => store.dead());
    expect(dead.map((d) => d.submissionId).sort()).toEqual([ids.expiring, ids.recent].sort());
    const warning = alerts.find((a) => a.includes('will be deleted')) ?? '';
    expect(warning).toContain(
      `1 dead letter will be deleted 30 days after the CRM refused it (LEAD_DEAD_LETTER_DAYS)`,
    );
    expect(warning).toContain(`${ids.expiring} (City expiring)`);
    expect(warning).not.toContain(ids.recent ?? '-');
    expect(warning).not.toContain('expiring@example.ca');
    expect(s.stderr()).toContain('"event":"dead letters expired","count":1');
  });

  it('never reaches a log: no e-mail, phone, name or visitor address in any line', async () => {
    const crm = await crmOf({ api: 'v2' });
    const db = path.join(await tempDir(), 'leads.db');
    const s = await serve({
      ...crm.env(),
      LEAD_OUTBOX_PATH: db,
      LEAD_RETRY_INTERVAL_MS: '200',
      LEAD_TRUSTED_PROXIES: '127.0.0.1',
    });
    const visitor = { 'X-Forwarded-For': '203.0.113.77' };
    const people = [0, 1, 2, 3].map((i) =>
      sampleClaim({
        email: `logged${i}@example.ca`,
        phone: `905-555-010${i}`,
        fullName: `Zéphirin Logstaff${i}`,
      }),
    );
    const [delivered, refused, retried, bot] = people as [
      (typeof people)[0],
      (typeof people)[0],
      (typeof people)[0],
      (typeof people)[0],
    ];
    expect((await s.post(delivered, visitor)).status).toBe(200);
    // The CRM quotes what it was sent in its refusal.
    crm.fail('contact', {
      status: 400,
      message: [
        `The contact ${refused.email} of ${refused.fullName} (${refused.phone}) could not be saved`,
      ],
    });
    expect((await s.post(refused, visitor)).status).toBe(202);
    crm.fail(
      'note',
      ...Array.from({ length: 8 }, () => ({
        status: 500,
        message: [`note for ${retried.email} failed`],
      })),
    );
    expect((await s.post(retried, visitor)).status).toBe(202);
    expect((await s.post({ ...bot, website: 'http://spam.example' }, visitor)).status).toBe(200);
    expect((await s.post({ ...delivered, email: 'not-an-email' }, visitor)).status).toBe(400);
    await until(() => readStore(db, async (st) => (await st.counts()).waiting === 0));
    const logs = s.stderr();
    expect(logs).toContain('lead dead-lettered');
    // The refusal by its status and a digest of the CRM's answer, none of its words.
    expect(logs).toMatch(/HTTP 400 \(answer sha256 [0-9a-f]{12}\)/);
    expect(logs).not.toContain('could not be saved');
    expect(logs).toContain('honeypot');
    for (const p of people)
      for (const personal of [p.email, p.phone, p.fullName, 'Logstaff'])
        expect(logs, personal).not.toContain(personal);
    for (const address of ['203.0.113.77', '127.0.0.1']) expect(logs).not.toContain(address);
  });
});
