import { spawn, spawnSync } from 'node:child_process';
import { renameSync } from 'node:fs';
import { cp, mkdtemp, readdir, readFile, stat, symlink, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { HTMLElement } from 'node-html-parser';
import type { PageAssets } from '../src/generate/assets.js';
import {
  entryLine,
  type FileEntry,
  type ManifestHeader,
  manifestHeader,
  PreviousManifest,
  writeManifestAside,
} from '../src/generate/manifest.js';
import { DataError, type DataIssue } from '../src/site/errors.js';
import { loadSite } from '../src/site/load.js';
import { type Phone, parsePhone } from '../src/site/phone.js';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const FIXTURE_DATA = path.join(ROOT, 'tests/fixtures/data');
export const BUNDLED_DATA = path.join(ROOT, 'data');
export const BIN = path.join(ROOT, 'bin/claimsite.cjs');

export const fixtureSite = () => loadSite(FIXTURE_DATA);

/** The assets pages link to, unhashed, for rendering pages in tests without a build. */
export const PAGE_ASSETS: PageAssets = {
  css: '/assets/site.css',
  js: '/assets/app.js',
  cityIndex: '/assets/cities.json',
  fonts: [],
};

/** An element's text as a reader meets it: its spaces collapsed. */
export const textOf = (el: HTMLElement | null | undefined) =>
  el?.textContent.replace(/\s+/g, ' ').trim() ?? '';

/** A number as site.json would give it, parsed; a test's own mistake if it does not parse. */
export function phoneOf(text: string): Phone {
  const parsed = parsePhone(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return parsed.phone;
}

/**
 * The one reader of built trees: every file under dir (none when it is not there), with its
 * bytes (base64, so that trees compare with toEqual), inode and modification time.
 */
export async function scanTree(dir: string) {
  const out = new Map<string, { bytes: string; ino: number; mtimeMs: number }>();
  const entries = await readdir(dir, { recursive: true, withFileTypes: true }).catch(() => []);
  for (const e of entries) {
    if (!e.isFile()) continue;
    const full = path.join(e.parentPath, e.name);
    const s = await stat(full);
    out.set(path.relative(dir, full).split(path.sep).join('/'), {
      bytes: await readFile(full, 'base64'),
      ino: s.ino,
      mtimeMs: s.mtimeMs,
    });
  }
  return out;
}

/** A tree's files and their bytes only: what two builds must agree on. */
export async function treeBytes(dir: string): Promise<Map<string, string>> {
  return new Map([...(await scanTree(dir))].map(([rel, f]) => [rel, f.bytes]));
}

/** A copy of a data folder in a fresh temporary folder, and where to build it. */
export async function dataCopy(from: string) {
  const dir = await tempDir();
  const data = path.join(dir, 'data');
  await cp(from, data, { recursive: true });
  return { dir, data, out: path.join(dir, 'dist') };
}

/** A fresh folder in the test run's own (tests/global-setup.ts), removed when the run ends. */
export async function tempDir(prefix = 'claimsite-test-'): Promise<string> {
  return mkdtemp(path.join(process.env.CLAIMSITE_TEST_TMP ?? os.tmpdir(), prefix));
}

/** Runs the real CLI binary in a child process. */
export function runCli(args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv } = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: options.cwd ?? ROOT,
    env: { ...process.env, ...options.env },
    encoding: 'utf8',
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

/** Runs the CLI without blocking this process: needed when the child talks to a server here. */
export function runCliAsync(args: string[], options: { env?: NodeJS.ProcessEnv } = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {
      cwd: ROOT,
      env: { ...process.env, ...options.env },
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => {
      stdout += d;
    });
    child.stderr.on('data', (d) => {
      stderr += d;
    });
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

/** Edits one JSON file of a data folder in place. */
export async function editJson(data: string, rel: string, change: (value: never) => void) {
  const file = path.join(data, rel);
  const value = JSON.parse(await readFile(file, 'utf8'));
  change(value as never);
  await writeFile(file, JSON.stringify(value, null, 2));
}

/** The data errors loading a data folder reports, none if it loads. */
export async function dataIssues(data: string): Promise<DataIssue[]> {
  try {
    await loadSite(data);
    return [];
  } catch (err) {
    if (!(err instanceof DataError)) throw err;
    return err.issues;
  }
}

/** A manifest put in place beside `outDir` at once, as a commit would put it. */
export function writeManifest(
  outDir: string,
  header: ManifestHeader,
  ...lines: Iterable<string>[]
): void {
  const { tmp, file } = writeManifestAside(outDir, header, ...lines);
  renameSync(tmp, file);
}

/** A manifest of `entries` (under `header`) written beside `outDir`, and read back. */
export function writtenManifest(
  outDir: string,
  entries: FileEntry[],
  header: ManifestHeader = manifestHeader({ key: 'k', public: {} }),
): PreviousManifest {
  writeManifest(
    outDir,
    header,
    entries.map((e) => entryLine(e)),
  );
  const read = PreviousManifest.read(outDir);
  if (!read) throw new Error('no manifest read back');
  return read;
}

/**
 * A copy of this checkout (its code, data and scripts; node_modules linked), compiled: a test may
 * edit its sources without touching the repository's.
 */
export async function checkoutCopy(): Promise<string> {
  const pkg = await tempDir('claimsite-pkg-');
  for (const f of [
    'src',
    'templates',
    'data',
    'scripts',
    'bin',
    'package.json',
    'package-lock.json',
    'tsconfig.json',
  ])
    await cp(path.join(ROOT, f), path.join(pkg, f), { recursive: true });
  await symlink(path.join(ROOT, 'node_modules'), path.join(pkg, 'node_modules'));
  const built = spawnSync(process.execPath, [path.join(pkg, 'scripts/build-cli.mjs')], {
    cwd: pkg,
    encoding: 'utf8',
  });
  if (built.status !== 0) throw new Error(`the copy did not compile: ${built.stderr}`);
  return pkg;
}
