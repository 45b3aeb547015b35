import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openLeadStore } from '../../src/lead/open-store.js';
import { claimSchema, messageSchema } from '../../src/lead/schema.js';
import { firstWait } from '../../src/lead/store.js';
import { runCliAsync, tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';

/**
 * `claimsite leads report`: what came, from where, and what became of it, from the counts the
 * store keeps of each accepted lead after its personal data is gone.
 */
const DAY = 24 * 60 * 60_000;
let db: string;

beforeAll(async () => {
  db = path.join(await tempDir(), 'leads.db');
  const store = openLeadStore({ outboxPath: db }, () => {});
  const add = async (lead: Parameters<typeof firstWait>[0], daysAgo: number) => {
    await store.add(firstWait(lead, 'down', {}, Date.now() - daysAgo * DAY), { maxWaiting: 100 });
    return lead.submissionId;
  };
  const google = {
    utm_source: 'google',
    utm_medium: 'cpc',
    gclid: 'Cj0-x',
    landing_page: '/toronto/',
  };
  const claim = (over: Record<string, unknown>) => claimSchema.parse(sampleClaim(over));
  // Three Google clicks, one of them back three days later typed in (first touch kept), two
  // visits typed in, a message, and one lead of two months ago.
  const delivered = [
    await add(claim({ attribution: google }), 1),
    await add(claim({ attribution: google, city: 'Ottawa' }), 2),
    await add(claim({ firstTouch: google, attribution: { landing_page: '/toronto/' } }), 3),
    await add(claim({ city: 'Ottawa', estimatedValue: 'over_1m' }), 4),
  ];
  await add(claim({ claimType: 'commercial' }), 10);
  const dead = await add(
    messageSchema.parse({
      form: 'contact',
      submissionId: crypto.randomUUID(),
      page: '/contact/',
      fullName: 'Paul',
      email: 'paul@example.ca',
      message: 'Hello',
    }),
    5,
  );
  await add(claim({ attribution: google }), 60);
  for (const id of delivered) await store.delivered(id, 'c1');
  const [entry] = await store.find({ submissionId: dead });
  if (entry?.kind === 'waiting') await store.bury(entry.entry, 'HTTP 400');
  await store.forget({ email: 'marie@example.ca' });
  await store.close();
});

const report = (...args: string[]) =>
  runCliAsync(['leads', 'report', '--outbox', db, ...args], { env: { LEAD_VALUES: '' } });

describe('claimsite leads report', () => {
  it('counts the last 30 days by first source, with what became of each and its value', async () => {
    const r = await report();
    expect(r.code, r.stderr).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^6 leads since \d{4}-\d\d-\d\d in .*leads\.db, by source:$/);
    expect(lines.slice(1, 4).map((l) => l.trim().split(/\s{2,}/))).toEqual([
      ['source', 'leads', 'delivered', 'waiting', 'refused', 'dropped', 'value'],
      ['direct', '3', '1', '0', '1', '1', '$117,500'],
      ['google / cpc', '3', '3', '0', '0', '0', '$52,500'],
    ]);
  });

  it('groups by city, claim or week, from a date or a span, and prints CSV for a spreadsheet', async () => {
    const byCity = await report('--by', 'city', '--csv');
    expect(byCity.stdout).toBe(
      [
        'city,leads,delivered,waiting,refused,dropped,value',
        '"Toronto, ON",3,2,0,0,1,52500',
        '"Ottawa, ON",2,2,0,0,0,117500',
        '(no city),1,0,0,1,0,0',
        '',
      ].join('\n'),
    );
    const byClaim = await report('--by', 'claim', '--since', '7d', '--csv');
    expect(byClaim.stdout.split('\n').slice(1, 3)).toEqual([
      'residential,4,4,0,0,0,152500',
      'message,1,0,0,1,0,0',
    ]);
    const since = new Date(Date.now() - 90 * DAY).toISOString().slice(0, 10);
    const byWeek = await report('--by', 'week', '--since', since, '--csv');
    const weeks = byWeek.stdout.trim().split('\n').slice(1);
    expect(weeks.reduce((n, l) => n + Number(l.split(',')[1]), 0)).toBe(7);
    expect(weeks.every((l) => /^week of \d{4}-\d\d-\d\d,/.test(l))).toBe(true);
    expect([...weeks].sort()).toEqual(weeks);
    const bad = await report('--since', 'lately');
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain('give a number of days or weeks (30d, 8w) or a date');
  });
});
