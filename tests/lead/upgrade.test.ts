import { spawnSync } from 'node:child_process';
import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import Database from 'libsql';
import { afterEach, describe, expect, it } from 'vitest';
import { claimSchema } from '../../src/lead/schema.js';
import { firstWait } from '../../src/lead/store.js';
import { BIN, tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';
import { readStore, type ServeProcess, startServe } from './serve-process.js';

const running: ServeProcess[] = [];
afterEach(async () => {
  for (const s of running.splice(0)) await s.stop();
});

/** The outbox of the version before the database, as its files held it. */
async function oldOutbox(dir: string) {
  const t0 = Date.parse('2026-11-01T10:00:00.000Z');
  const at = (i: number) => new Date(t0 + i * 1000).toISOString();
  const leads = Array.from({ length: 10_000 }, (_, i) =>
    sampleClaim({ email: `old${i}@example.ca`, phone: `416-555-${String(i).padStart(4, '0')}` }),
  );
  const line = (lead: (typeof leads)[number], i: number, over = {}) =>
    JSON.stringify({
      submissionId: lead.submissionId,
      receivedAt: at(i),
      lead,
      attempts: 0,
      nextAttemptAt: at(i),
      reason: 'CRM unreachable',
      ...over,
    });
  const waitingLines = leads.map((l, i) => line(l, i));
  // A later line for a lead is its latest state.
  waitingLines.push(line(leads[5] as (typeof leads)[number], 5, { attempts: 3, contactId: 'c5' }));
  // What the old store skipped, and what disabled it: not one of them is fatal now.
  const garbage = [
    '{"submissionId":"torn-by-a-cra',
    'null',
    '{}',
    '42',
    '"text"',
    '[]',
    JSON.stringify({ submissionId: 'no-lead-0000000000', receivedAt: at(1) }),
    JSON.stringify({ ...JSON.parse(waitingLines[0] ?? '{}'), submissionId: 'another-id-00000001' }),
  ];
  await writeFile(path.join(dir, 'leads.jsonl'), `${[...waitingLines, ...garbage].join('\n')}\n`);
  // Two delivered, one dead letter: none of them waits any more.
  await writeFile(
    path.join(dir, 'delivered.jsonl'),
    [0, 1]
      .map((i) =>
        JSON.stringify({ submissionId: leads[i]?.submissionId, contactId: `c${i}`, at: at(i) }),
      )
      .concat(['{"broken'])
      .join('\n'),
  );
  await writeFile(
    path.join(dir, 'dead.jsonl'),
    `${JSON.stringify({ submissionId: leads[2]?.submissionId, receivedAt: at(2), deadAt: at(3), reason: 'HTTP 422: phone is not valid', lead: leads[2] })}\n`,
  );
  await writeFile(path.join(dir, 'alerts.json'), JSON.stringify({ waiting: at(9) }));
  return { leads, garbage: garbage.length + 1 };
}

describe('the upgrade from the JSON-lines outbox', () => {
  it('imports 10,000 waiting leads, dead letters and delivered ids once, counts the lines that are not records, and sets the files aside', async () => {
    const dir = path.join(await tempDir(), 'outbox');
    await mkdir(dir);
    const { leads, garbage } = await oldOutbox(dir);
    const before = await readFile(path.join(dir, 'leads.jsonl'), 'utf8');
    // The older Docker image's setting, which the owner's compose file may still carry.
    const env = { GHL_TOKEN: '', LEAD_OUTBOX_PATH: path.join(dir, 'leads.jsonl') };
    const dist = await tempDir();
    const s = await startServe({ dir: dist, env });
    running.push(s);
    const health = await (await fetch(`${s.url}/api/health`)).json();
    expect(health.outbox).toEqual({ waiting: 9997 });
    const imported = s
      .stderr()
      .split('\n')
      .filter((l) => l.includes('"outbox imported"'));
    expect(imported).toHaveLength(1);
    expect(JSON.parse(imported[0] ?? '{}')).toMatchObject({
      waiting: 9997,
      dead: 1,
      delivered: 2,
      skipped: garbage,
    });
    // Set aside, not deleted: the same bytes under another name.
    const names = await readdir(dir);
    expect(names).not.toContain('leads.jsonl');
    const aside = names.find((n) => /^leads\.jsonl\.imported-/.test(n)) ?? '';
    expect(await readFile(path.join(dir, aside), 'utf8')).toBe(before);
    for (const f of ['delivered.jsonl', 'dead.jsonl', 'alerts.json'])
      expect(names.some((n) => n.startsWith(`${f}.imported-`))).toBe(true);

    const db = path.join(dir, 'leads.db');
    await readStore(db, async (store) => {
      expect(await store.status(leads[0]?.submissionId ?? '')).toBe('delivered');
      expect(await store.status(leads[2]?.submissionId ?? '')).toBe('dead');
      expect(await store.status('another-id-00000001')).toBeNull();
      const [five] = await store.find({ submissionId: leads[5]?.submissionId ?? '' });
      expect(five?.entry).toMatchObject({ attempts: 3, contactId: 'c5' });
      expect(await store.alertState()).toEqual({ waiting: '2026-11-01T10:00:09.000Z' });
    });
    const list = spawnSync(process.execPath, [BIN, 'leads', 'list', '--outbox', db], {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    expect(list.status).toBe(0);
    expect(list.stdout.split('\n')).toHaveLength(1 + 9997 + 1 + 1 + 1);
    expect(list.stdout).toContain('9997 leads waiting');

    // Once: a restart imports nothing again.
    await s.stop();
    const again = await startServe({ dir: dist, env });
    running.push(again);
    expect((await (await fetch(`${again.url}/api/health`)).json()).outbox).toEqual({
      waiting: 9997,
    });
    expect(again.stderr()).not.toContain('outbox imported');
  }, 120_000);

  it('cannot hold a record that is not a lead: the database refuses it', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'leads.db');
    await readStore(file, (store) => store.counts());
    const db = new Database(file);
    try {
      for (const lead of ['null', '42', '"text"', '[]', 'not json'])
        expect(() =>
          db
            .prepare(
              "INSERT INTO leads (submission_id, state, received_at, lead) VALUES ('x-0000000000000000', 'waiting', '2026-11-01', ?)",
            )
            .run(lead),
        ).toThrow(/CHECK constraint failed|malformed JSON/);
      // Nor one delivered that keeps personal data.
      expect(() =>
        db
          .prepare(
            "INSERT INTO leads (submission_id, state, received_at, lead) VALUES ('x-0000000000000000', 'delivered', '2026-11-01', '{}')",
          )
          .run(),
      ).toThrow(/CHECK constraint failed/);
    } finally {
      db.close();
    }
  });

  it('adds the progress column a database of the last version lacks, keeping its leads, and counts what comes next', async () => {
    const dir = await tempDir();
    const file = path.join(dir, 'leads.db');
    const lead = claimSchema.parse(sampleClaim());
    await readStore(file, (store) => store.add(firstWait(lead, 'down'), { maxWaiting: 10 }));
    // The table as the last version made it: no progress column, no counts.
    const db = new Database(file);
    db.exec('ALTER TABLE leads DROP COLUMN progress; DROP TABLE lead_facts;');
    db.close();
    const steps = await readStore(file, async (store) => {
      await store.keep({ ...firstWait(lead, 'note: HTTP 503'), contactId: 'c1', enrolled: true });
      const later = claimSchema.parse(sampleClaim({ email: 'later@example.ca' }));
      await store.add(firstWait(later, 'down'), { maxWaiting: 10 });
      return { waiting: await store.waiting(), counted: await store.counted() };
    });
    expect(steps.waiting.map((w) => [w.submissionId, w.enrolled ?? false])).toEqual([
      [lead.submissionId, true],
      [expect.any(String), false],
    ]);
    // Leads kept before counting began are not counted; the next are.
    expect(steps.counted).toHaveLength(1);
  });
});
