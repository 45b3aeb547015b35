import { spawn } from 'node:child_process';
import { cp, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BIN, FIXTURE_DATA, tempDir } from './helpers.js';

/** Reads server-sent events from the reload channel into a list. */
async function listen(url: string, events: string[]) {
  const res = await fetch(url);
  const reader = res.body?.getReader();
  const decoder = new TextDecoder();
  void (async () => {
    for (;;) {
      const chunk = await reader?.read().catch(() => undefined);
      if (!chunk || chunk.done) return;
      for (const m of decoder.decode(chunk.value).matchAll(/event: ([\w-]+)/g))
        events.push(m[1] ?? '');
    }
  })();
  return () => reader?.cancel();
}

const until = async (check: () => boolean | Promise<boolean>, ms = 20_000) => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error('timed out waiting');
};

describe('serve --watch', () => {
  it('rebuilds after a data edit, reloads pages, and survives a bad edit', async () => {
    const dir = await tempDir();
    const data = path.join(dir, 'data');
    const dist = path.join(dir, 'dist');
    await cp(FIXTURE_DATA, data, { recursive: true });
    const child = spawn(process.execPath, [
      BIN,
      'serve',
      '--watch',
      '--data',
      data,
      '--dir',
      dist,
      '--port',
      '0',
      '--no-api',
    ]);
    let out = '';
    let err = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      err += d;
    });
    try {
      await until(() => /Serving .* at (http:\/\/[\d.:]+)/.test(out));
      const base = /at (http:\/\/[\d.:]+)/.exec(out)?.[1] ?? '';
      const page = async () => (await fetch(`${base}/vancouver/`)).text();
      const first = await page();
      expect(first).toContain('/__claimsite/reload.js');
      expect(await readFile(path.join(dist, 'vancouver/index.html'), 'utf8')).not.toContain(
        '__claimsite',
      );

      const events: string[] = [];
      const stop = await listen(`${base}/__claimsite/events`, events);
      const file = path.join(data, 'cities/bc.json');
      const good = JSON.parse(await readFile(file, 'utf8'));
      good[0].description = 'Edited while watching. Rain and more rain.';
      await writeFile(file, JSON.stringify(good));
      await until(() => events.includes('reload'));
      expect(await page()).toContain('Edited while watching.');

      await writeFile(file, '[{ "broken": ');
      await until(() => events.includes('error-report'));
      expect(err).toContain('bc.json');
      expect(await page()).toContain('Edited while watching.');

      good[0].description = 'Fixed again. Rain and more rain.';
      await writeFile(file, JSON.stringify(good));
      await until(() => events.filter((e) => e === 'reload').length >= 2);
      expect(await page()).toContain('Fixed again.');
      await stop();
    } finally {
      child.kill();
    }
  }, 90_000);
});
