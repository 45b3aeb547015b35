import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { cp, mkdir, readFile, rename, rm, stat, truncate, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { STORE_HARMED } from '../../src/lead/health.js';
import { startFakeCrm } from '../fake-crm.js';
import { FIXTURE_DATA, runCli, runCliAsync, tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';
import { readStore, type ServeProcess, startServe, startWebhook } from './serve-process.js';

/**
 * The store's files harmed under a running `claimsite serve` (an operator's mistake, a cleanup
 * script, a volume remounted), for real: the database or its log deleted, truncated or
 * overwritten with random bytes by another process. No lead may be acknowledged into a store
 * that is gone: the next one is refused (the visitor keeps the answers and is given the phone
 * number), health says 503 and the owner's webhook hears of it; a restart does not start an
 * empty store unnoticed.
 */
let dist: string;
const cleanup: Array<() => unknown> = [];
beforeAll(async () => {
  dist = path.join(await tempDir(), 'dist');
  expect(runCli(['generate', '--data', FIXTURE_DATA, '--out', dist, '--quiet']).code).toBe(0);
});
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

async function serve(env: Record<string, string>): Promise<ServeProcess> {
  const s = await startServe({ dir: dist, env });
  cleanup.push(() => s.stop('SIGKILL'));
  return s;
}

/** The owner's alert webhook: every text it was sent. */
async function webhook(): Promise<{ url: string; texts: string[] }> {
  const hook = await startWebhook();
  cleanup.push(hook.close);
  return hook;
}

let people = 0;
const person = () => {
  people++;
  return sampleClaim({
    email: `harm${people}@example.ca`,
    phone: `613-555-${String(people % 10_000).padStart(4, '0')}`,
  });
};

const health = async (s: ServeProcess) => {
  const res = await fetch(`${s.url}/api/health`);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
};

const until = async (check: () => Promise<boolean> | boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 100));
  }
};

const HARMS: Array<[string, (db: string) => Promise<void>, RegExp]> = [
  ['the database deleted', (db) => rm(db), /gone or was replaced.*leads\.db was removed/],
  ['its log deleted', (db) => rm(`${db}-wal`), /gone or was replaced.*leads\.db-wal.*removed/],
  ['the database truncated', (db) => truncate(db, 0), /damaged.*leads\.db was truncated/],
  [
    'the database overwritten with random bytes',
    async (db) => writeFile(db, randomBytes((await stat(db)).size)),
    /damaged.*leads\.db was overwritten/,
  ],
  [
    'its log overwritten with random bytes',
    async (db) => writeFile(`${db}-wal`, randomBytes((await stat(`${db}-wal`)).size)),
    /damaged.*leads\.db-wal was overwritten/,
  ],
  [
    'the database replaced by a copy',
    async (db) => {
      await cp(db, `${db}.copy`);
      await rename(`${db}.copy`, db);
    },
    /gone or was replaced.*leads\.db was replaced/,
  ],
];

describe("the store's files harmed under a running server", () => {
  for (const [harm, doIt, alerted] of HARMS) {
    it(`${harm}: acknowledges nothing more, says 503 and alerts the owner before any other lead`, async () => {
      const hook = await webhook();
      const db = path.join(await tempDir(), 'outbox', 'leads.db');
      const s = await serve({
        GHL_TOKEN: '',
        LEAD_OUTBOX_PATH: db,
        LEAD_ALERT_WEBHOOK: hook.url,
        LEAD_RETRY_INTERVAL_MS: '200',
      });
      for (let i = 0; i < 5; i++) expect((await s.post(person())).status).toBe(202);
      expect((await health(s)).status).toBe(200);
      expect(existsSync(`${db}.id`)).toBe(true);

      await doIt(db);
      // The very next lead is refused: the browser keeps the answers and gives the phone.
      const answers = [];
      for (let i = 0; i < 5; i++) answers.push((await s.post(person())).status);
      expect(answers).toEqual([503, 503, 503, 503, 503]);
      expect(await health(s)).toEqual({
        status: 503,
        body: { status: 'unavailable', reason: STORE_HARMED },
      });
      await until(() => hook.texts.some((t) => alerted.test(t)));
      // Once each hour per condition, however many leads were refused.
      await new Promise((r) => setTimeout(r, 500));
      expect(hook.texts.filter((t) => alerted.test(t))).toHaveLength(1);
      expect(hook.texts.find((t) => alerted.test(t))).toContain('claimsite leads store --init');
    }, 60_000);
  }

  it('its log deleted: what it held is copied into the database, and outlives a kill -9', async () => {
    const db = path.join(await tempDir(), 'leads.db');
    const s = await serve({ GHL_TOKEN: '', LEAD_OUTBOX_PATH: db });
    const acknowledged = [person(), person(), person(), person(), person()];
    for (const a of acknowledged) expect((await s.post(a)).status).toBe(202);
    await rm(`${db}-wal`);
    expect((await s.post(person())).status).toBe(503);
    await s.stop('SIGKILL');
    const kept = await readStore(db, async (store) =>
      (await store.waiting()).map((e) => e.submissionId),
    );
    expect(kept.sort()).toEqual(acknowledged.map((a) => a.submissionId).sort());
  }, 60_000);

  it('a harm that only a full check finds (bytes inside the database): health says 503 and alerts', async () => {
    const hook = await webhook();
    const db = path.join(await tempDir(), 'leads.db');
    const s = await serve({ GHL_TOKEN: '', LEAD_OUTBOX_PATH: db, LEAD_ALERT_WEBHOOK: hook.url });
    for (let i = 0; i < 50; i++) expect((await s.post(person())).status).toBe(202);
    await s.stop();
    // Pages are in the database now (the log was copied into it at the stop); a restart, then
    // random bytes over everything but the header.
    const s2 = await serve({ GHL_TOKEN: '', LEAD_OUTBOX_PATH: db, LEAD_ALERT_WEBHOOK: hook.url });
    expect((await s2.post(person())).status).toBe(202);
    const bytes = await readFile(db);
    randomBytes(bytes.length - 100).copy(bytes, 100);
    await writeFile(db, bytes);
    await until(async () => (await health(s2)).status === 503);
    expect((await health(s2)).body).toEqual({ status: 'unavailable', reason: STORE_HARMED });
    expect((await s2.post(person())).status).toBe(503);
    await until(() => hook.texts.some((t) => /The lead store is damaged/.test(t)));
  }, 60_000);
});

describe('a full disk, then a volume remounted read-only', () => {
  it('alerts once for each, however many leads are refused at once', async () => {
    const hook = await webhook();
    const mount = path.join(await tempDir(), 'volume');
    await mkdir(mount);
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=4m,mode=0700', 'tmpfs', mount]);
    cleanup.push(() => execFileSync('umount', ['-l', mount]));
    const db = path.join(mount, 'leads.db');
    const s = await serve({ GHL_TOKEN: '', LEAD_OUTBOX_PATH: db, LEAD_ALERT_WEBHOOK: hook.url });
    for (let i = 0; i < 5; i++) expect((await s.post(person())).status).toBe(202);
    await writeFile(path.join(mount, 'filler'), Buffer.alloc(8 * 1024 * 1024)).catch(() => {});
    const big = () => ({ ...person(), damageDescription: 'x'.repeat(4000) });
    const full = await Promise.all(Array.from({ length: 40 }, () => s.post(big())));
    expect(full.filter((r) => r.status === 503).length).toBeGreaterThan(0);
    const diskFull = (t: string) => t.startsWith("The lead store's disk is full");
    await until(() => hook.texts.some(diskFull));
    await new Promise((r) => setTimeout(r, 1000));
    expect(hook.texts.filter(diskFull)).toHaveLength(1);

    await rm(path.join(mount, 'filler'));
    await until(async () => (await s.post(person())).status === 202);
    // The volume comes back read-only after a restart (a file system that has files open for
    // writing cannot be remounted so).
    await s.stop();
    execFileSync('mount', ['-o', 'remount,ro', mount]);
    const ro = await serve({ GHL_TOKEN: '', LEAD_OUTBOX_PATH: db, LEAD_ALERT_WEBHOOK: hook.url });
    const readOnly = await Promise.all(Array.from({ length: 10 }, () => ro.post(person())));
    expect(readOnly.map((r) => r.status)).toEqual(Array(10).fill(503));
    expect((await health(ro)).status).toBe(503);
    const cannotWrite = (t: string) => t.startsWith('The lead store cannot be written');
    await until(() => hook.texts.some(cannotWrite));
    await new Promise((r) => setTimeout(r, 1000));
    expect(hook.texts.filter(cannotWrite)).toHaveLength(1);
    execFileSync('mount', ['-o', 'remount,rw', mount]);
  }, 60_000);
});

describe('a restart that finds the store gone', () => {
  it('refuses leads, saying how, until leads store --init; a backup restored brings its leads back', async () => {
    const hook = await webhook();
    const dir = await tempDir();
    const db = path.join(dir, 'leads.db');
    const env = { GHL_TOKEN: '', LEAD_OUTBOX_PATH: db, LEAD_ALERT_WEBHOOK: hook.url };
    const s = await serve(env);
    const kept = [person(), person(), person()];
    for (const k of kept) expect((await s.post(k)).status).toBe(202);

    // A backup while it runs; never over a file that is there.
    const backup = path.join(dir, 'backup.db');
    const made = runCli(['leads', 'backup', backup, '--outbox', db]);
    expect(made.stderr).toBe('');
    expect(made.code).toBe(0);
    expect(made.stdout).toMatch(/^Backed up lead store [0-9a-f-]{36} \(3 leads waiting, 0 dead/);
    const bytes = await readFile(backup);
    const again = runCli(['leads', 'backup', backup, '--outbox', db]);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('exists: a backup never overwrites a file');
    expect((await readFile(backup)).equals(bytes)).toBe(true);
    expect((await stat(backup)).mode & 0o777).toBe(0o600);
    expect((await s.post(person())).status).toBe(202);

    // A cleanup removes the database and its log while the server is down.
    await s.stop('SIGKILL');
    await rm(db);
    await rm(`${db}-wal`, { force: true });
    await rm(`${db}-shm`, { force: true });
    const restarted = await serve(env);
    expect((await restarted.post(person())).status).toBe(503);
    expect(await health(restarted)).toEqual({
      status: 503,
      body: { status: 'unavailable', reason: STORE_HARMED },
    });
    expect(existsSync(db)).toBe(false);
    await until(() =>
      /leads\.db is missing.*claimsite leads store --init/.test(restarted.stderr()),
    );
    await until(() => hook.texts.some((t) => /leads\.db is missing/.test(t)));
    const list = runCli(['leads', 'list', '--outbox', db]);
    expect(list.code).toBe(1);
    expect(list.stderr).toContain('claimsite leads store --init');

    // The documented restore: the server stopped, the backup copied into place.
    await restarted.stop();
    await cp(backup, db);
    const restored = await serve(env);
    expect((await restored.post(person())).status).toBe(202);
    expect((await health(restored)).status).toBe(200);
    const ids = await readStore(db, async (store) =>
      (await store.waiting()).map((e) => e.submissionId),
    );
    for (const k of kept) expect(ids).toContain(k.submissionId);

    // Or an empty store, on the operator's word, taken by the running server at once.
    await restored.stop('SIGKILL');
    await rm(db);
    await rm(`${db}-wal`, { force: true });
    const refused = await serve(env);
    expect((await refused.post(person())).status).toBe(503);
    const init = runCli(['leads', 'store', '--init', '--outbox', db]);
    expect(init.stderr).toBe('');
    expect(init.code).toBe(0);
    expect(init.stdout).toContain('Started an empty lead store');
    expect((await refused.post(person())).status).toBe(202);
    await until(async () => (await health(refused)).status === 200);
    const status = runCli(['leads', 'store', '--outbox', db]);
    expect(status.code).toBe(0);
    expect(status.stdout).toMatch(
      /is lead store [0-9a-f-]{36} \(1 lead waiting, 0 dead letters\); its files check out/,
    );
  }, 90_000);
});

describe('alerts across processes', () => {
  it('sends one "auth" alert for many leads refused with a 401 at once on two servers', async () => {
    const hook = await webhook();
    const crm = await startFakeCrm({ api: 'v2', token: 'pit-right', burstLimit: 100_000 });
    cleanup.push(() => crm.close());
    const env = {
      ...crm.env(),
      GHL_TOKEN: 'pit-revoked',
      LEAD_OUTBOX_PATH: path.join(await tempDir(), 'leads.db'),
      LEAD_ALERT_WEBHOOK: hook.url,
    };
    const servers = [await serve(env), await serve(env)];
    const answers = await Promise.all(
      Array.from({ length: 16 }, (_, i) =>
        (servers[i % 2] as ServeProcess).post(person()).then((r) => r.status),
      ),
    );
    // Each kept for the CRM (the statuses listed when one is not, and what the servers said).
    expect(answers, servers.map((s) => s.stderr()).join('\n')).toEqual(answers.map(() => 202));
    await until(() => hook.texts.some((t) => t.includes('refused the API token')));
    await new Promise((r) => setTimeout(r, 1000));
    expect(hook.texts.filter((t) => t.includes('refused the API token'))).toHaveLength(1);
  }, 60_000);
});

describe('a drain killed outright', () => {
  it('leaves no lease behind: leads retry right after a kill -9 delivers at once', async () => {
    const crm = await startFakeCrm({ api: 'v2' });
    cleanup.push(() => crm.close());
    const db = path.join(await tempDir(), 'leads.db');
    const env = { ...crm.env(), LEAD_OUTBOX_PATH: db, LEAD_RETRY_INTERVAL_MS: '200' };
    const first = await serve({ ...env, GHL_TOKEN: '' });
    const claim = person();
    expect((await first.post(claim)).status).toBe(202);
    await first.stop();
    // The next server's drain holds the lease while the CRM takes 3 s over the note; it is
    // killed in between, and its lease had 30 s to run.
    crm.fail('note', { stallMs: 3000 });
    const second = await serve(env);
    await until(() => crm.contacts.size === 1, 15_000);
    await new Promise((r) => setTimeout(r, 300));
    await second.stop('SIGKILL');
    await until(() => crm.notes.length === 1, 10_000);
    const t0 = Date.now();
    const retry = await runCliAsync(['leads', 'retry', '--outbox', db], { env });
    const took = Date.now() - t0;
    expect(retry.stdout).toContain('Delivered 1, still waiting 0');
    expect(retry.code).toBe(0);
    expect(took).toBeLessThan(10_000);
    expect(crm.notes).toHaveLength(1);
    expect(await readStore(db, (store) => store.status(claim.submissionId))).toBe('delivered');
  }, 60_000);
});
