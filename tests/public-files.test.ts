import { mkdir, readFile, rm, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generate } from '../src/generate/generate.js';
import { dataCopy, FIXTURE_DATA, runCli, scanTree } from './helpers.js';

/** Bytes no text encoding would keep as they are. */
const IMAGE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0xff, 0xfe, 0x80]);

async function withPublic() {
  const site = await dataCopy(FIXTURE_DATA);
  const pub = path.join(site.dir, 'public');
  await mkdir(path.join(pub, 'images'), { recursive: true });
  await mkdir(path.join(pub, '.well-known'));
  await writeFile(path.join(pub, 'CNAME'), 'www.example.org\n');
  await writeFile(path.join(pub, 'google1234abcd.html'), 'google-site-verification: 1234abcd');
  await writeFile(path.join(pub, 'images', 'team.png'), IMAGE);
  await writeFile(path.join(pub, '.well-known', 'security.txt'), 'Contact: mailto:x@example.org\n');
  return { ...site, pub };
}

const options = (s: Awaited<ReturnType<typeof withPublic>>) => ({
  dataDir: s.data,
  outDir: s.out,
  publicDir: s.pub,
  lastmod: '2026-11-22',
  codeVersion: 'test',
});

describe('the public folder', () => {
  it('is copied into the output as it is, dot folders included', async () => {
    const s = await withPublic();
    await generate(options(s));
    expect(await readFile(path.join(s.out, 'CNAME'), 'utf8')).toBe('www.example.org\n');
    expect((await readFile(path.join(s.out, 'images', 'team.png'))).equals(IMAGE)).toBe(true);
    expect(await readFile(path.join(s.out, '.well-known', 'security.txt'), 'utf8')).toContain(
      'Contact:',
    );
    expect(await readFile(path.join(s.out, 'google1234abcd.html'), 'utf8')).toBe(
      'google-site-verification: 1234abcd',
    );
  });

  it('is kept while unchanged, updated when changed, and removed when removed', async () => {
    const s = await withPublic();
    await generate(options(s));
    const before = await scanTree(s.out);
    const again = await generate(options(s));
    expect(again.changed).toBe(0);
    const same = await scanTree(s.out);
    for (const rel of ['CNAME', 'images/team.png', '.well-known/security.txt'])
      expect([same.get(rel)?.ino, same.get(rel)?.mtimeMs]).toEqual([
        before.get(rel)?.ino,
        before.get(rel)?.mtimeMs,
      ]);

    await writeFile(path.join(s.pub, 'CNAME'), 'claims.example.org\n');
    // Same size, a new time: read again, and written because the bytes differ.
    await writeFile(path.join(s.pub, 'images', 'team.png'), Buffer.from(IMAGE).reverse());
    await rm(path.join(s.pub, '.well-known'), { recursive: true });
    const changed = await generate(options(s));
    expect(changed.changed).toBe(2);
    expect(await readFile(path.join(s.out, 'CNAME'), 'utf8')).toBe('claims.example.org\n');
    expect(
      (await readFile(path.join(s.out, 'images', 'team.png'))).equals(Buffer.from(IMAGE).reverse()),
    ).toBe(true);
    expect((await scanTree(s.out)).has('.well-known/security.txt')).toBe(false);

    // A file touched but not changed is read and compared, and left as it was.
    const kept = await scanTree(s.out);
    await utimes(path.join(s.pub, 'CNAME'), new Date(), new Date(Date.now() + 5000));
    expect((await generate(options(s))).changed).toBe(0);
    expect((await scanTree(s.out)).get('CNAME')?.mtimeMs).toBe(kept.get('CNAME')?.mtimeMs);
  });

  it('adds its _headers to the generated rules and may replace robots.txt', async () => {
    const s = await withPublic();
    await writeFile(path.join(s.pub, '_headers'), '/images/*\n  Cache-Control: max-age=86400\n');
    await writeFile(path.join(s.pub, 'robots.txt'), 'User-agent: *\nDisallow: /drafts/\n');
    await generate(options(s));
    const headers = await readFile(path.join(s.out, '_headers'), 'utf8');
    expect(headers).toContain('Content-Security-Policy:');
    expect(headers.indexOf('/images/*')).toBeGreaterThan(
      headers.indexOf('Content-Security-Policy'),
    );
    expect(await readFile(path.join(s.out, 'robots.txt'), 'utf8')).toBe(
      'User-agent: *\nDisallow: /drafts/\n',
    );
  });

  it('may not take the path of a page: a data error naming both, and nothing written', async () => {
    const s = await withPublic();
    await generate(options(s));
    const before = await scanTree(s.out);
    await mkdir(path.join(s.pub, 'toronto'));
    await writeFile(path.join(s.pub, 'toronto', 'index.html'), '<h1>mine</h1>');
    const r = runCli(['generate', '--data', s.data, '--out', s.out, '--public', s.pub]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(
      `${path.join(s.pub, 'toronto', 'index.html')}: has the same path in the output as the page /toronto/`,
    );
    expect(await scanTree(s.out)).toEqual(before);
  });

  it('is optional by default, and must exist when named', async () => {
    const s = await dataCopy(FIXTURE_DATA);
    const ok = runCli(['generate', '--data', s.data, '--out', s.out, '--quiet'], { cwd: s.dir });
    expect(ok.code, ok.stderr).toBe(0);
    const named = runCli(['generate', '--data', s.data, '--out', s.out, '--public', 'nope'], {
      cwd: s.dir,
    });
    expect(named.code).toBe(1);
    expect(named.stderr).toContain('the public folder nope does not exist');
  });
});
