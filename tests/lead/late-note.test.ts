import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeCrm } from '../fake-crm.js';
import { tempDir } from '../helpers.js';
import { sampleClaim } from './sample.js';
import { readStore, startServe } from './serve-process.js';

/**
 * A CRM that writes a note only after the client has stopped waiting for it (GoHighLevel under
 * load): the note must still be written once (issue 47, point 6).
 */
const cleanup: Array<() => unknown> = [];
afterEach(async () => {
  for (const c of cleanup.splice(0).reverse()) await c();
});

describe('a note the CRM commits late', () => {
  it('is written once: after the 5 s timeout the note is looked up again, not posted again', async () => {
    const crm = await startFakeCrm({ api: 'v2' });
    cleanup.push(() => crm.close());
    // The note's post is answered, and the note written, 6 s after it arrives.
    crm.fail('note', { stallMs: 6000 });
    const db = path.join(await tempDir(), 'leads.db');
    const s = await startServe({
      dir: await tempDir(),
      env: { ...crm.env(), LEAD_OUTBOX_PATH: db, LEAD_RETRY_INTERVAL_MS: '300' },
    });
    cleanup.push(() => s.stop());
    const claim = sampleClaim();
    const posted = Date.now();
    // 202: kept, the note not yet found (200 were it posted twice within the answer's time).
    expect([200, 202]).toContain((await s.post(claim)).status);
    const end = Date.now() + 60_000;
    while (
      !(await readStore(db, async (st) => (await st.status(claim.submissionId)) === 'delivered'))
    ) {
      if (Date.now() > end) throw new Error('the lead was never delivered');
      await new Promise((r) => setTimeout(r, 200));
    }
    // Past the late commit, so that a second post would have shown by now.
    await new Promise((r) => setTimeout(r, Math.max(0, posted + 7000 - Date.now())));
    const notes = crm.notes.filter((n) => n.body.includes(claim.submissionId));
    expect(notes).toHaveLength(1);
    expect(crm.duplicateNotes()).toBe(0);
  }, 90_000);
});
