import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openLeadStore } from '../../src/lead/open-store.js';
import { startFakeCrm } from '../fake-crm.js';
import { runCliAsync, tempDir } from '../helpers.js';
import { startPostgres } from './postgres.js';
import { sampleClaim } from './sample.js';
import { type ServeProcess, startServe } from './serve-process.js';

/**
 * Several Node hosts behind a load balancer share one PostgreSQL database (LEAD_STORE_URL):
 * whichever takes a lead, it is kept once, and the drains of all of them deliver it once.
 */
let postgres: Awaited<ReturnType<typeof startPostgres>>;
beforeAll(async () => {
  postgres = await startPostgres();
});
afterAll(() => postgres?.stop());

describe('two instances on one PostgreSQL database', () => {
  it('keep each lead once whichever took it, and their drains deliver each once', async () => {
    const crm = await startFakeCrm({ api: 'v2', burstLimit: 100_000 });
    const env = {
      ...crm.env(),
      LEAD_STORE_URL: postgres.url(),
      LEAD_RETRY_INTERVAL_MS: '200',
      LEAD_OUTBOX_PATH: `${await tempDir()}/unused.db`,
    };
    const dir = await tempDir();
    const servers: ServeProcess[] = [];
    try {
      servers.push(await startServe({ dir, env }), await startServe({ dir, env }));
      crm.down(60_000);
      const leads = Array.from({ length: 20 }, (_, i) =>
        sampleClaim({
          email: `shared${i}@example.ca`,
          phone: `514-555-01${String(i).padStart(2, '0')}`,
        }),
      );
      // Each sent to both, as a browser retrying through a load balancer might.
      const answers = await Promise.all(
        leads.flatMap((l) => servers.map((s) => s.post(l).then((r) => r.status))),
      );
      expect(answers.every((s) => s === 202)).toBe(true);
      const list = await runCliAsync(['leads', 'list'], {
        env: { LEAD_STORE_URL: postgres.url() },
      });
      expect(list.code).toBe(0);
      expect(list.stdout).toContain('20 leads waiting in postgresql://postgres@localhost');
      crm.down(0);
      const store = openLeadStore({ outboxPath: '', storeUrl: postgres.url() }, () => {});
      try {
        const end = Date.now() + 60_000;
        while ((await store.counts()).waiting > 0 && Date.now() < end)
          await new Promise((r) => setTimeout(r, 200));
        expect(await store.counts()).toEqual({ waiting: 0, dead: 0 });
      } finally {
        await store.close();
      }
      expect(crm.contacts.size).toBe(20);
      expect(crm.notes).toHaveLength(20);
      expect(crm.duplicateNotes()).toBe(0);
      for (const s of servers) {
        const health = await (await fetch(`${s.url}/api/health`)).json();
        expect(health).toEqual({ status: 'ok', outbox: { waiting: 0 } });
      }
    } finally {
      for (const s of servers) await s.stop();
      await crm.close();
    }
  }, 120_000);
});
