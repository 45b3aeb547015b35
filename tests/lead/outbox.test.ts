import { appendFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ledger, Outbox } from '../../src/lead/outbox.js';
import { claimSchema } from '../../src/lead/schema.js';
import { tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';

describe('the outbox and its ledger', () => {
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

  it('keeps appends made during a drain and survives a torn last line', async () => {
    const file = path.join(await tempDir(), 'leads.jsonl');
    const outbox = new Outbox(file);
    const a = claimSchema.parse(sampleClaim());
    const b = claimSchema.parse(sampleClaim({ email: 'b@example.ca' }));
    await outbox.add(a, 'CRM down');
    await appendFile(file, '{"submissionId":"torn'); // a crash mid-append
    const r = await outbox.drain(async (lead) => {
      await outbox.add(b, 'arrived during the drain');
      return `contact-for-${lead.email}`;
    });
    expect(r).toEqual({ delivered: 1, kept: 1, skipped: 0 });
    const left = (await readFile(file, 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(left.map((e) => e.lead.email)).toEqual(['b@example.ca']);
    expect(await outbox.ledger.has(a.submissionId)).toBe(true);
  });
});
