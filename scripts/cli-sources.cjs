// What the compiled CLI (lib/) is made from, and whether lib/ is older than it: used by
// scripts/build-cli.mjs, which compiles it, and by bin/claimsite.cjs, which in a checkout compiles
// it again before a command that runs the site's code, so that an edit is never ignored.
// CommonJS, so that the bin can load it without starting Node's ES module loader. Only a checkout
// has it: an installed package carries lib/ and nothing to compile it from.
'use strict';
const { createHash } = require('node:crypto');
const { spawnSync } = require('node:child_process');
const { existsSync, readdirSync, readFileSync, statSync, utimesSync } = require('node:fs');
const path = require('node:path');

/** The stamp in lib/: the hash of the sources it was compiled from. */
const STAMP = '.sources';
const FOLDERS = ['src', 'templates'];
const FILES = [
  'package.json',
  'package-lock.json',
  'scripts/build-cli.mjs',
  'scripts/cli-sources.cjs',
  'scripts/latin1-source.mjs',
  'tsconfig.json',
];

/** Every source file, relative to root, sorted. */
function sourceFiles(root) {
  const files = [];
  for (const dir of FOLDERS) {
    const abs = path.join(root, dir);
    if (!existsSync(abs)) continue;
    const inDir = readdirSync(abs, { withFileTypes: true, recursive: true })
      .filter((e) => e.isFile())
      .map((e) => path.relative(root, path.join(e.parentPath, e.name)))
      .sort();
    files.push(...inDir);
  }
  return files;
}

/** A hash of everything the compiled CLI is made from. */
function sourcesHash(root) {
  const hash = createHash('sha256');
  for (const file of sourceFiles(root))
    hash
      .update(file)
      .update('\0')
      .update(readFileSync(path.join(root, file)));
  for (const file of FILES)
    hash
      .update(file)
      .update('\0')
      .update(existsSync(path.join(root, file)) ? readFileSync(path.join(root, file)) : '');
  hash.update(process.version);
  return hash.digest('hex');
}

/**
 * The latest change time of the sources: their files and folders (a file removed or renamed
 * changes its folder's). A few milliseconds, against reading and hashing every file.
 */
function newestChange(root) {
  let newest = 0;
  const seen = (file) => {
    const s = statSync(file, { throwIfNoEntry: false });
    if (s && s.mtimeMs > newest) newest = s.mtimeMs;
  };
  for (const dir of FOLDERS) {
    const abs = path.join(root, dir);
    seen(abs);
    if (!existsSync(abs)) continue;
    for (const e of readdirSync(abs, { withFileTypes: true, recursive: true }))
      seen(path.join(e.parentPath, e.name));
  }
  for (const file of FILES) seen(path.join(root, file));
  return newest;
}

/**
 * Whether lib/ was compiled from the sources as they are. The stamp's time is when its hash was
 * taken (build-cli.mjs sets it so), so a source changed since is newer: only then are the
 * sources hashed, and a stamp found current after all (a file saved unchanged, a checkout of
 * the same content) is touched so that the next run need not hash them again.
 */
function isCurrent(root) {
  const stamp = path.join(root, 'lib', STAMP);
  const stamped = statSync(stamp, { throwIfNoEntry: false });
  if (!stamped) return false;
  if (newestChange(root) <= stamped.mtimeMs) return true;
  const started = new Date();
  if (readFileSync(stamp, 'utf8') !== sourcesHash(root)) return false;
  utimesSync(stamp, started, started);
  return true;
}

/**
 * Compiles lib/ again when its sources changed (scripts/build-cli.mjs, which leaves the last good
 * lib/ when they do not compile). Resolves with null when lib/ is current, else with what
 * happened: `compiled`, or `failed` with the compiler's report.
 */
function compileIfChanged(root) {
  if (isCurrent(root)) return null;
  const r = spawnSync(process.execPath, [path.join(root, 'scripts', 'build-cli.mjs')], {
    cwd: root,
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  // Another command may have compiled the same sources at the same time.
  return r.status === 0 || isCurrent(root)
    ? { compiled: true, report: '' }
    : {
        compiled: false,
        report:
          `${r.stderr ?? ''}`.trim() ||
          `the compiler stopped: ${r.error ?? r.signal ?? `exit code ${r.status}`}`,
      };
}

module.exports = { STAMP, sourcesHash, compileIfChanged };
