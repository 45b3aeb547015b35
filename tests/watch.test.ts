import { type ChildProcessWithoutNullStreams, execFileSync, spawn } from 'node:child_process';
import { cp, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, checkoutCopy, FIXTURE_DATA, tempDir } from './helpers.js';

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

const until = async (check: () => boolean | Promise<boolean>, ms = 20_000, what = '') => {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`timed out waiting${what ? `: ${what}` : ''}`);
};

let running: ChildProcessWithoutNullStreams | undefined;
afterEach(() => {
  running?.kill('SIGKILL');
  running = undefined;
});

/** `claimsite dev` in its own folder, from `bin` (the repository's, or a copy of it). */
async function dev(cwd: string, bin = BIN) {
  const child = spawn(
    process.execPath,
    [bin, 'dev', '--data', 'data', '--dir', 'dist', '--port', '0', '--no-api'],
    { cwd },
  );
  running = child;
  const log = { out: '', err: '' };
  child.stdout.on('data', (d) => {
    log.out += d;
  });
  child.stderr.on('data', (d) => {
    log.err += d;
  });
  await until(() => /Serving .* at (http:\/\/[\d.:]+)/.test(log.out), 60_000);
  const base = /at (http:\/\/[\d.:]+)/.exec(log.out)?.[1] ?? '';
  const events: string[] = [];
  const stop = await listen(`${base}/__claimsite/events`, events);
  const count = (e: string) => events.filter((x) => x === e).length;
  return { child, log, base, events, count, stop };
}

/** What an editor's save does: a temporary file written, then renamed over the old one. */
async function atomicSave(file: string, text: string) {
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.swp-${Date.now()}`);
  await writeFile(tmp, text);
  await rename(tmp, file);
}

async function site() {
  const dir = await tempDir();
  await cp(FIXTURE_DATA, path.join(dir, 'data'), { recursive: true });
  return dir;
}

describe('claimsite dev', () => {
  it('sees every atomic save, git checkout and new file, and shows a data error while serving the last good site', async () => {
    const dir = await site();
    const d = await dev(dir);
    const page = async () => (await fetch(`${d.base}/vancouver/`)).text();
    expect(await page()).toContain('/__claimsite/reload.js');
    expect(await readFile(path.join(dir, 'dist/vancouver/index.html'), 'utf8')).not.toContain(
      '__claimsite',
    );
    const file = path.join(dir, 'data/cities/bc.json');
    const cities = JSON.parse(await readFile(file, 'utf8'));
    const described = (text: string) => {
      cities[0].description = text;
      return JSON.stringify(cities);
    };
    /** Does something, and waits for open pages to be told to reload after it. */
    const reloaded = async (action: () => unknown) => {
      const before = d.count('reload');
      await action();
      await until(() => d.count('reload') > before);
    };
    const shows = (url: string, text: string) =>
      until(async () => (await (await fetch(`${d.base}${url}`)).text()).includes(text));

    // Three atomic saves in a row: each one is seen (a watcher of the file would lose it).
    for (const n of [1, 2, 3]) {
      await reloaded(() => atomicSave(file, described(`Saved ${n} times. Rain and more rain.`)));
      await shows('/vancouver/', `Saved ${n} times.`);
    }

    // git checkout puts back the committed file by renaming a new one into place.
    const git = (...args: string[]) =>
      execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@example.org', ...args], {
        cwd: path.join(dir, 'data'),
      });
    git('init', '-q');
    git('add', '-A');
    git('commit', '-q', '-m', 'data');
    await reloaded(() => writeFile(file, described('Not committed. Rain and more rain.')));
    await shows('/vancouver/', 'Not committed.');
    await reloaded(() => git('checkout', '--', 'cities/bc.json'));
    await shows('/vancouver/', 'Saved 3 times.');

    // A new file: a blog post that did not exist.
    const post = (
      await readFile(path.join(dir, 'data/posts/public-adjuster-fees-explained.md'), 'utf8')
    )
      .replace(/^title: .*$/m, 'title: A Post Written While Watching')
      .replace(
        /^description: .*$/m,
        'description: Written while the dev server watched, to see that a new file is built at once.',
      );
    await reloaded(() => writeFile(path.join(dir, 'data/posts/written-while-watching.md'), post));
    await shows('/blog/written-while-watching/', 'A Post Written While Watching');

    // A file renamed: the page moves with it.
    await reloaded(() =>
      rename(
        path.join(dir, 'data/posts/written-while-watching.md'),
        path.join(dir, 'data/posts/renamed-while-watching.md'),
      ),
    );
    await shows('/blog/renamed-while-watching/', 'A Post Written While Watching');
    expect((await fetch(`${d.base}/blog/written-while-watching/`)).status).toBe(404);

    // A data error: shown in the terminal and in open pages; the last good site is served. That
    // file alone is blamed: not the catastrophe that names Toronto, which the broken file holds.
    const onFile = path.join(dir, 'data/cities/on.json');
    const onText = await readFile(onFile, 'utf8');
    await atomicSave(onFile, '[{ "broken": ');
    await until(() => d.events.includes('error-report'));
    expect(d.log.err).toMatch(/Invalid data \(1 problem\):\n {2}- \S*on\.json: is not valid JSON/);
    expect(await page()).toContain('Saved 3 times.');
    // A page opened now is told of the error too.
    const late: string[] = [];
    const stopLate = await listen(`${d.base}/__claimsite/events`, late);
    await until(() => late.includes('error-report'));
    await stopLate();

    await atomicSave(onFile, onText);
    await reloaded(() => atomicSave(file, described('Fixed. Rain and more rain.')));
    await shows('/vancouver/', 'Fixed.');
    await d.stop();
  }, 120_000);

  it('stops at the first Ctrl-C with pages open', async () => {
    const dir = await site();
    const d = await dev(dir);
    // An open page: its reload channel and a keep-alive connection.
    await fetch(`${d.base}/toronto/`, { keepalive: true });
    const exited = new Promise<number | null>((r) => d.child.on('exit', (code) => r(code)));
    const sent = Date.now();
    d.child.kill('SIGINT');
    const code = await Promise.race([
      exited,
      new Promise((r) => setTimeout(() => r('still running'), 3000)),
    ]);
    expect(code).toBe(0);
    expect(Date.now() - sent).toBeLessThan(3000);
  }, 60_000);

  it('keeps the last good code when a template breaks: errors shown, the CLI still starts, fixed is rebuilt', async () => {
    // A copy of the package, so the test breaks a template of its own.
    const pkg = await checkoutCopy();
    const bin = path.join(pkg, 'bin/claimsite.cjs');
    const dir = await site();
    const d = await dev(dir, bin);
    const logo = path.join(pkg, 'templates/components/Logo.tsx');
    const good = await readFile(logo, 'utf8');

    await atomicSave(logo, `${good}\nexport const broken = <div>;\n`);
    await until(() => d.events.includes('error-report'), 60_000, `${d.log.out}${d.log.err}`);
    expect(d.log.err).toContain('Logo.tsx');
    expect((await fetch(`${d.base}/toronto/`)).status).toBe(200);
    const other = spawn(process.execPath, [bin, '--version']);
    expect(await new Promise((r) => other.on('exit', r))).toBe(0);

    await atomicSave(logo, good.replace('</span>', ' Canada</span>'));
    await until(() => d.count('reload') >= 1, 60_000, `${d.log.out}${d.log.err}`);
    expect(await (await fetch(`${d.base}/toronto/`)).text()).toContain(' Canada</span>');
  }, 180_000);
});
