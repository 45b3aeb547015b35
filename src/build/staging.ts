import { link, mkdir, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * A build writes into a sibling staging folder and swaps it in only at the end, so a failed
 * or killed build leaves the previous output as it was. The swap is two renames; a build
 * killed between them leaves the old tree under `.{name}.old-*`, which the next build restores.
 * A file whose bytes did not change is hard-linked from the previous output instead of written,
 * so it keeps its modification time (and hosts that sync by time upload only what changed).
 */
export class Staging {
  private readonly made = new Set<string>();
  bytes = 0;
  files = 0;
  /** Files written because their bytes are new or changed. */
  changed = 0;

  private constructor(
    readonly outDir: string,
    readonly dir: string,
  ) {}

  static async open(outDir: string): Promise<Staging> {
    const out = path.resolve(outDir);
    await recover(out);
    const dir = siblingName(out, `staging-${process.pid}-${Date.now()}`);
    await mkdir(dir, { recursive: true });
    return new Staging(out, dir);
  }

  async write(rel: string, data: string | Uint8Array): Promise<void> {
    const target = path.join(this.dir, rel);
    const parent = path.dirname(target);
    if (!this.made.has(parent)) {
      await mkdir(parent, { recursive: true });
      this.made.add(parent);
    }
    const bytes = typeof data === 'string' ? Buffer.from(data) : data;
    this.files++;
    this.bytes += bytes.byteLength;
    const previous = path.join(this.outDir, rel);
    const old = await readFile(previous).catch(() => null);
    if (old?.equals(bytes)) {
      try {
        await link(previous, target);
        return;
      } catch {
        // A file system without hard links: write the bytes instead.
      }
    }
    await writeFile(target, bytes);
    this.changed++;
  }

  /** Takes the previous output's file as it is, without new bytes; false when there is none. */
  async reuse(rel: string): Promise<boolean> {
    const target = path.join(this.dir, rel);
    const parent = path.dirname(target);
    if (!this.made.has(parent)) {
      await mkdir(parent, { recursive: true });
      this.made.add(parent);
    }
    try {
      await link(path.join(this.outDir, rel), target);
    } catch {
      return false;
    }
    // Awaited first: `this.bytes += await …` would read the total before the await and lose
    // the additions of concurrent calls.
    const { size } = await stat(target);
    this.files++;
    this.bytes += size;
    return true;
  }

  async commit(): Promise<void> {
    const old = siblingName(this.outDir, `old-${process.pid}-${Date.now()}`);
    const existing = await stat(this.outDir).catch(() => null);
    if (existing && !existing.isDirectory()) {
      throw new Error(`${this.outDir} exists and is not a folder`);
    }
    if (existing) await rename(this.outDir, old);
    await rename(this.dir, this.outDir);
    if (existing) await rm(old, { recursive: true, force: true });
  }

  async abort(): Promise<void> {
    await rm(this.dir, { recursive: true, force: true });
  }
}

function siblingName(out: string, suffix: string): string {
  return path.join(path.dirname(out), `.${path.basename(out)}.${suffix}`);
}

/** Puts back an output folder left aside by a killed swap, and clears dead staging folders. */
async function recover(out: string): Promise<void> {
  const parent = path.dirname(out);
  const prefix = `.${path.basename(out)}.`;
  const names = await readdir(parent).catch(() => [] as string[]);
  const mine = names.filter((n) => n.startsWith(prefix));
  const hasOut = names.includes(path.basename(out));
  const olds = mine.filter((n) => n.startsWith(`${prefix}old-`)).sort();
  const newestOld = olds.at(-1);
  if (!hasOut && newestOld) await rename(path.join(parent, newestOld), out);
  for (const n of mine) {
    if (n === newestOld && !hasOut) continue;
    const pid = Number(n.slice(prefix.length).split('-')[1]);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
    await rm(path.join(parent, n), { recursive: true, force: true });
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
