import {
  closeSync,
  existsSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  writeSync,
} from 'node:fs';
import path from 'node:path';
import { isAlive } from '../process.js';

/**
 * A commit of staged files into an existing output folder: a journal of moves and deletions,
 * fsynced and renamed into place (which decides the commit), then applied. A kill at any moment
 * leaves either the previous output or a decided commit, which the next build completes first.
 */
export interface Journal {
  /** The sibling folder holding the staged files. */
  staging: string;
  moves: Array<[string, string]>;
  deletes: string[];
  /** The new manifest, written aside beside the folder, and its name in place. */
  manifest?: [aside: string, name: string];
}

/**
 * Run before a build touches anything: completes an incremental commit a killed build left, and
 * clears the staging folders of builds that are no longer running.
 */
export function recoverOutput(outDir: string): void {
  const out = path.resolve(outDir);
  const parent = path.dirname(out);
  const journal = journalFile(out);
  if (existsSync(journal)) {
    applyJournal(out, JSON.parse(readFileSync(journal, 'utf8')) as Journal);
  }
  const prefix = `.${path.basename(out)}.`;
  for (const n of readdirSafe(parent)) {
    if (!n.startsWith(prefix)) continue;
    const rest = n.slice(prefix.length);
    // A journal never renamed into place: its commit was not decided.
    if (rest.startsWith('journal.') && rest.endsWith('.tmp')) {
      rmSync(path.join(parent, n), { force: true });
      continue;
    }
    if (WRITTEN_ASIDE.test(rest)) {
      const writer = Number(rest.split('.').at(-2));
      if (!(Number.isInteger(writer) && writer !== process.pid && isAlive(writer)))
        rmSync(path.join(parent, n), { force: true });
      continue;
    }
    if (!rest.startsWith('staging-')) continue;
    const pid = Number(rest.split('-')[1]);
    if (Number.isInteger(pid) && pid !== process.pid && isAlive(pid)) continue;
    rmSync(path.join(parent, n), { recursive: true, force: true });
  }
}

/**
 * What a killed build was writing aside (its manifest, its audit's phrases and state, the phrases
 * of the pages it rendered, its valid records), never renamed into place: <name>.<pid>.tmp.
 */
const WRITTEN_ASIDE =
  /^(manifest\.json|audit-(phrases|state)\.bin|audit-rendered|valid-records\.json)\.\d+\.tmp$/;

/** Applies a decided commit; safe to run again on a commit that was partly applied. */
function applyJournal(out: string, journal: Journal): void {
  const staging = path.join(path.dirname(out), journal.staging);
  const made = new Set<string>();
  for (const [staged, rel] of journal.moves) {
    const from = path.join(staging, staged);
    if (!existsSync(from)) continue; // moved before a kill
    const target = path.join(out, rel);
    const dir = path.dirname(target);
    if (!made.has(dir)) {
      mkdirSync(dir, { recursive: true });
      made.add(dir);
    }
    renameSync(from, target);
  }
  const emptied = new Set<string>();
  for (const rel of journal.deletes) {
    rmSync(path.join(out, rel), { force: true });
    emptied.add(path.dirname(path.join(out, rel)));
  }
  // A removed page leaves its folder (and maybe its parent) empty.
  for (const dir of [...emptied].sort().reverse()) {
    for (let d = dir; d.startsWith(out + path.sep); d = path.dirname(d)) {
      try {
        rmdirSync(d);
      } catch {
        break;
      }
    }
  }
  // The manifest last, once the folder is as it says.
  if (journal.manifest) {
    const [aside, name] = journal.manifest;
    const from = path.join(path.dirname(out), aside);
    if (existsSync(from)) renameSync(from, path.join(path.dirname(out), name));
  }
  rmSync(journalFile(out), { force: true });
  // Empty once every move is made; rmdir spares loading the recursive remover for nothing.
  try {
    rmdirSync(staging);
  } catch {
    rmSync(staging, { recursive: true, force: true });
  }
}

const journalFile = (out: string) => siblingName(out, 'journal');

/** Writes a journal and applies it: from the rename of the journal on, the commit is decided. */
export function commitJournal(outDir: string, journal: Journal): void {
  const file = journalFile(outDir);
  const tmp = `${file}.${process.pid}.tmp`;
  const fd = openSync(tmp, 'w');
  try {
    writeSync(fd, JSON.stringify(journal));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(tmp, file);
  syncDir(path.dirname(outDir));
  applyJournal(outDir, journal);
}

export function siblingName(out: string, suffix: string): string {
  return path.join(path.dirname(out), `.${path.basename(out)}.${suffix}`);
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/** Makes a rename in `dir` durable; not every file system can, and then it is skipped. */
function syncDir(dir: string): void {
  try {
    const fd = openSync(dir, 'r');
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  } catch {
    // Best effort: the journal file itself was fsynced.
  }
}
