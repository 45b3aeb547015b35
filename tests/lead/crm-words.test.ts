import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeCrm } from '../fake-crm.js';
import { tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';
import { readStore, startServe, startWebhook } from './serve-process.js';

/**
 * GoHighLevel's refusals echo what they were sent, and not only as the visitor typed it: the
 * logs and the alerts must hold none of it whatever the CRM answers (issue 47, point 3).
 */
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

const person = {
  fullName: 'Jeanne Tremblay-Ouellet',
  email: 'jeanne.tremblay@example.ca',
  phone: '514-555-0147',
  address: '4821 Rue Saint-Denis, Montréal, QC',
  postalCode: 'H2J 2L6',
  city: 'Montréal',
  province: 'QC' as const,
};

/** The person as a CRM may quote them: six forms, none of them as the visitor typed it. */
const FORMS = [
  'JEANNE.TREMBLAY@EXAMPLE.CA',
  'jeanne.tremblay @ example.ca',
  '4821 Rue Saint-Denis',
  '5145550147',
  'Jeanne Tremblay-Ouellet',
  'H2J 2L6',
];

const until = async (what: string, check: () => Promise<boolean> | boolean, ms = 60_000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
};

describe('the CRM quoting the person', () => {
  it('puts no form of them in any log line or alert: status, cited fields and a digest only', async () => {
    const hook = await startWebhook();
    cleanup.push(hook.close);
    const alerts = hook.bodies;
    const crm = await startFakeCrm({ api: 'v2', quote: FORMS });
    cleanup.push(() => crm.close());
    const db = path.join(await tempDir(), 'leads.db');
    const s = await startServe({
      dir: await tempDir(),
      env: {
        ...crm.env(),
        ...crm.pipelineEnv(),
        LEAD_OUTBOX_PATH: db,
        LEAD_RETRY_INTERVAL_MS: '200',
        LEAD_ALERT_AFTER_MS: '1',
        LEAD_ALERT_WEBHOOK: hook.url,
      },
    });
    cleanup.push(() => s.stop());
    let stdout = '';
    s.child.stdout?.on('data', (d) => {
      stdout += d;
    });
    const claim = (over = {}) => sampleClaim({ ...person, ...over });

    // The tags refused while the CRM struggles, then the opportunity and the workflow for good.
    crm.fail('tags', ...Array.from({ length: 4 }, () => ({ status: 500 })));
    crm.fail('opportunity', { status: 400, message: 'Pipeline stage not found' });
    crm.fail('workflow', { status: 400, message: 'Workflow not found' });
    const first = claim();
    expect((await s.post(first)).status).toBe(202);
    await until('the first lead delivered', () =>
      readStore(db, async (st) => (await st.status(first.submissionId)) === 'delivered'),
    );
    // The contact refused for good: a dead letter, told to the owner.
    crm.fail('contact', { status: 422, message: ['locationId must be a valid id'] });
    const second = claim();
    expect((await s.post(second)).status).toBe(202);
    await until('the dead letter', () =>
      readStore(db, async (st) => (await st.status(second.submissionId)) === 'dead'),
    );
    // The token refused, at submission and again from the outbox: the auth and waiting alerts.
    crm.fail('contact', { status: 401 }, { status: 401 });
    const third = claim();
    expect((await s.post(third)).status).toBe(202);
    await until('the third lead delivered', () =>
      readStore(db, async (st) => (await st.status(third.submissionId)) === 'delivered'),
    );
    await until('the alerts', () =>
      ['for good', 'API token', 'not reached the CRM'].every((c) =>
        alerts.some((a) => a.includes(c)),
      ),
    );
    await new Promise((r) => setTimeout(r, 500));

    const lines = [...`${s.stderr()}\n${stdout}`.split('\n'), ...alerts];
    for (const form of [...FORMS, person.email, person.phone]) {
      const found = lines.filter((l) => l.toLowerCase().includes(form.toLowerCase()));
      expect(found, form).toEqual([]);
    }
    // The steps that failed are logged, by status and digest: the test saw them happen.
    const log = s.stderr();
    expect(log).toContain('Failed to add tags to contact');
    expect(log).toMatch(
      /lead dead-lettered.*HTTP 422 citing locationId \(answer sha256 [0-9a-f]{12}\)/,
    );
    expect(alerts.length).toBeGreaterThanOrEqual(3);
    expect(alerts.join('\n')).toContain('HTTP 422');
    expect(alerts.join('\n')).toContain('HTTP 401');
    // The note, which the CRM holds with the person anyway, names what it refused in its words.
    const note = crm.notes.find((n) => n.body.includes(first.submissionId));
    expect(note?.body).toContain('Workflow not found');
  }, 120_000);
});
