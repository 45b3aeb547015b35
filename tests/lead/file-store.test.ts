import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FileLeadStore, Ledger } from '../../src/lead/file-store.js';
import { claimSchema } from '../../src/lead/schema.js';
import { firstWait } from '../../src/lead/store.js';
import { tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';

const lead = (over = {}) => claimSchema.parse(sampleClaim(over));

describe('the file lead store', () => {
  it('sees ids another process delivered, under many concurrent checks', async () => {
    const file = path.join(await tempDir(), 'delivered.jsonl');
    const writer = new Ledger(file);
    const reader = new Ledger(file);
    expect(await reader.has('a')).toBe(false);
    for (let i = 0; i < 40; i++) await writer.add(`id-${i}`, `c${i}`);
    const seen = await Promise.all(Array.from({ length: 40 }, (_, i) => reader.has(`id-${i}`)));
    expect(seen.every(Boolean)).toBe(true);
    expect(await reader.has('id-40')).toBe(false);
  });

  it('keeps what is added during a drain, survives a torn last line, and forgets what was delivered', async () => {
    const file = path.join(await tempDir(), 'outbox', 'leads.jsonl');
    const store = new FileLeadStore(file);
    const a = lead();
    const b = lead({ email: 'b@example.ca' });
    await store.keep(firstWait(a, 'CRM down'));
    await appendFile(file, '{"submissionId":"torn'); // a crash mid-append
    await store.exclusive(
      async () => {
        await store.keep(firstWait(b, 'arrived during the drain'));
        await store.delivered(a.submissionId, 'c1');
      },
      { wait: true },
    );
    expect((await store.waiting()).map((e) => e.lead.email)).toEqual(['b@example.ca']);
    const lines = (await readFile(file, 'utf8')).trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(await store.isDelivered(a.submissionId)).toBe(true);
  });

  it('loses no lead kept while a drain forgets what no longer waits', async () => {
    // A drain ends by rewriting the file without what was delivered. A lead kept between its
    // look at what waits and its rewrite was once rewritten away: a visitor's claim lost.
    const store = new FileLeadStore(path.join(await tempDir(), 'leads.jsonl'));
    const kept: string[] = [];
    for (let round = 0; round < 30; round++) {
      const drained = store.exclusive(async () => undefined, { wait: true });
      const arriving = Array.from({ length: 4 }, async (_, i) => {
        await new Promise((r) => setTimeout(r, i * 2));
        const l = lead({ email: `r${round}-${i}@example.ca` });
        await store.keep(firstWait(l, 'CRM down'));
        kept.push(l.submissionId);
      });
      await Promise.all([drained, ...arriving]);
    }
    const waiting = new Set((await store.waiting()).map((e) => e.submissionId));
    expect(kept.filter((id) => !waiting.has(id))).toEqual([]);
    expect(waiting.size).toBe(120);
  });

  it('takes the latest state of a lead, moves one to the dead letters, and drops one', async () => {
    const store = new FileLeadStore(path.join(await tempDir(), 'leads.jsonl'));
    const a = lead();
    const b = lead({ email: 'b@example.ca' });
    await store.keep(firstWait(a, 'CRM down'));
    await store.keep({ ...firstWait(a, 'still down'), attempts: 2, contactId: 'c9' });
    await store.keep(firstWait(b, 'CRM down'));
    const [first] = await store.waiting();
    expect(first).toMatchObject({ attempts: 2, contactId: 'c9', reason: 'still down' });
    await store.bury(first as NonNullable<typeof first>, 'contact: HTTP 422: phone is not valid');
    expect((await store.waiting()).map((e) => e.submissionId)).toEqual([b.submissionId]);
    expect(await store.dead()).toMatchObject([
      {
        submissionId: a.submissionId,
        reason: 'contact: HTTP 422: phone is not valid',
        contactId: 'c9',
      },
    ]);
    expect(await store.drop(a.submissionId)).toBe(true);
    expect(await store.dead()).toEqual([]);
    expect(await store.drop('no-such-lead-0000')).toBe(false);
  });

  it('keeps personal data from other users: files 0600 in a folder 0700', async () => {
    const dir = path.join(await tempDir(), 'outbox');
    const store = new FileLeadStore(path.join(dir, 'leads.jsonl'));
    const a = lead();
    await store.keep(firstWait(a, 'CRM down'));
    await store.bury(firstWait(lead({ email: 'b@example.ca' }), 'x'), 'refused');
    await store.delivered('delivered-id-0000', 'c1');
    await store.saveAlertState({ waiting: new Date().toISOString() });
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    for (const f of ['leads.jsonl', 'dead.jsonl', 'delivered.jsonl', 'alerts.json'])
      expect(((await stat(path.join(dir, f))).mode & 0o777).toString(8), f).toBe('600');
  });

  it("makes a file an older version left readable by others the owner's alone", async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'leads.jsonl');
    await writeFile(file, '', { mode: 0o644 });
    await new FileLeadStore(file).keep(firstWait(lead(), 'CRM down'));
    expect((await stat(file)).mode & 0o777).toBe(0o600);
  });

  it('lets one drain run at a time: a scheduled one gives way, leads retry waits', async () => {
    const store = new FileLeadStore(path.join(await tempDir(), 'leads.jsonl'));
    let release = () => {};
    const first = store.exclusive(() => new Promise<string>((r) => (release = () => r('first'))), {
      wait: true,
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(await store.exclusive(async () => 'second', { wait: false })).toBeNull();
    const third = store.exclusive(async () => 'third', { wait: true });
    release();
    expect(await first).toBe('first');
    expect(await third).toBe('third');
  });
});
