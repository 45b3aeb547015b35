import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURE_DATA, runCli, tempDir } from '../helpers.js';

describe('no CRM secret reaches the built site', () => {
  it('builds with the CRM settings in the environment and finds none of them in any output file', async () => {
    const env = {
      GHL_TOKEN: 'test-crm-token-that-must-never-reach-dist',
      GHL_LOCATION_ID: 'loc-secret-location-id-4242',
      GHL_BASE_URL: 'https://crm-secret-host.example',
    };
    const out = path.join(await tempDir(), 'dist');
    const r = runCli(['generate', '--data', FIXTURE_DATA, '--out', out, '--quiet'], { env });
    expect(r.code).toBe(0);
    const files = (await readdir(out, { recursive: true, withFileTypes: true })).filter((e) =>
      e.isFile(),
    );
    expect(files.length).toBeGreaterThan(100);
    for (const f of files) {
      const text = await readFile(path.join(f.parentPath, f.name), 'latin1');
      for (const [name, secret] of Object.entries(env))
        expect(text.includes(secret), `${name} in ${f.name}`).toBe(false);
      expect(text).not.toContain('leadconnectorhq');
      expect(text).not.toMatch(/Bearer\s/);
    }
  });
});
