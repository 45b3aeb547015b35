// Loads the compiled CLI (CommonJS) with V8's code cache: the bundle's functions come back
// compiled instead of being parsed and compiled again on every run (Node 22 has a compile cache
// of its own, module.enableCompileCache; Node 20 has none). The cache is made after a run, so
// it holds what that run compiled, not only the top level.
//
// V8 rejects a cache made by another version or with other flags, but it trusts the bytes: a
// damaged cache crashes the process. So each cache carries a checksum of its bytes, and its name
// carries the bundle's size and time, so a rebuilt bundle never meets an old cache. A cache that
// cannot be written (a read-only install) is simply not kept.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

const SUM = 32;
const checksum = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest();

interface LoadedModule {
  exports: Record<string, unknown>;
  /** True when the code came from the cache. */
  reused: boolean;
  /** Keeps what this run compiled as the cache, unless it ran from one. */
  save(): void;
}

/** Runs `file` as a CommonJS module; `save()` keeps the code cache if this run had none to use. */
export function requireWithCodeCache(file: string): LoadedModule {
  const source = readFileSync(file, 'utf8');
  const { size, mtimeMs } = statSync(file);
  const cacheFile = path.join(
    path.dirname(file),
    '.cache',
    `${path.basename(file)}-${size}-${Math.trunc(mtimeMs)}-${process.version}-${process.arch}.v8`,
  );
  const cachedData = readChecked(cacheFile);
  // CommonJS's own wrapper, on the first line so that stack traces keep their line numbers.
  const wrapped = `(function (exports, require, module, __filename, __dirname) { ${source}\n})`;
  const script = new vm.Script(wrapped, { filename: file, cachedData });
  const module = { exports: {} as Record<string, unknown> };
  script
    .runInThisContext()
    .call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  const reused = cachedData !== undefined && !script.cachedDataRejected;
  return {
    exports: module.exports,
    reused,
    save() {
      if (reused) return;
      try {
        const data = script.createCachedData();
        mkdirSync(path.dirname(cacheFile), { recursive: true });
        const tmp = `${cacheFile}.${process.pid}.tmp`;
        writeFileSync(tmp, Buffer.concat([checksum(data), data]));
        renameSync(tmp, cacheFile);
      } catch {
        // Not writable here: every run compiles, as without a cache.
      }
    },
  };
}

/** The cache's bytes if they are whole and unchanged since they were written. */
function readChecked(cacheFile: string): Buffer | undefined {
  let bytes: Buffer;
  try {
    bytes = readFileSync(cacheFile);
  } catch {
    return undefined;
  }
  const data = bytes.subarray(SUM);
  return bytes.length > SUM && checksum(data).equals(bytes.subarray(0, SUM)) ? data : undefined;
}
