import { closeSync, fstatSync, openSync, readSync, renameSync, rmSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AuditTables } from './audit.js';
import { BINS } from './minhash.js';
import { PhraseReader } from './phrase-reader.js';
import { PhraseTable } from './phrase-table.js';
import { StoredPhraseTable } from './stored-phrase-table.js';

/**
 * What the last build's audit knew, kept beside the output folder, so that the next build reads
 * and splits only the pages it changed, and brings the audit's tables up to date with them
 * rather than making them anew (at 100x, 40,000 indexable pages of 30 KB each). Two files:
 *
 * - the phrases, 32-bit words one page after the other; a build that changes a few pages appends
 *   theirs, and the file is written anew once it is mostly phrases no page has any more;
 * - the state: the audited files in page order, where each page's phrases are, and the tables
 *   (see AuditTables), written whole by each build.
 *
 * The state is removed before the output folder changes and written once it has (see
 * AuditWriter.commit): a build killed in between, or one that does not audit, leaves none, and
 * the next audit starts afresh.
 */
export class SavedAudit {
  private readonly reader = new PhraseReader();

  private constructor(
    private readonly stateFd: number,
    private readonly dataFd: number,
  ) {}

  /**
   * The output folder's last audit, opened (an open file stays readable when the commit
   * removes it); null when there is none.
   */
  static open(outDir: string): SavedAudit | null {
    const { state, data } = storeFiles(outDir);
    let stateFd: number | null = null;
    try {
      stateFd = openSync(state, 'r');
      return new SavedAudit(stateFd, openSync(data, 'r'));
    } catch {
      if (stateFd !== null) closeSync(stateFd);
      return null;
    }
  }

  /**
   * The state, read but for its phrase table, which is looked up in the file as needed (see
   * StoredPhraseTable; the file stays open until `close`); null when it is unreadable or not of
   * the phrases file beside it.
   */
  load(topics: string | null): SavedState | null {
    try {
      const head = Buffer.alloc(4);
      readSync(this.stateFd, head, 0, 4, 0);
      const headerLength = head.readUInt32LE(0);
      const json = Buffer.alloc(headerLength);
      if (readSync(this.stateFd, json, 0, headerLength, 4) !== headerLength) return null;
      const header = JSON.parse(json.toString('utf8')) as Header;
      if (header.format !== FORMAT || header.littleEndian !== LITTLE_ENDIAN) return null;
      // Phrases carry their topic bit by the lexicon that split them: another lexicon, anew.
      if (header.topics !== topics) return null;
      if (inode(this.dataFd) !== header.data.ino || fstatSync(this.dataFd).size < header.data.end)
        return null;
      const pages = header.files.length;
      const sections = new Sections(this.stateFd, align(4 + headerLength));
      const offsets = sections.take(Float64Array, pages);
      const tables: AuditTables = {
        phrases: sections.take(Uint32Array, pages),
        own: sections.take(Int32Array, pages),
        ownSentences: sections.take(Int32Array, pages),
        ownTopic: sections.take(Int32Array, pages),
        signatures: sections.take(Uint16Array, pages * BINS),
        nearest: {
          page: sections.take(Int32Array, pages),
          equal: sections.take(Uint8Array, pages),
        },
        table: new StoredPhraseTable(
          this.stateFd,
          sections.at,
          header.table.capacity,
          header.table.used,
        ),
      };
      if (fstatSync(this.stateFd).size !== sections.at + PhraseTable.bytes(header.table.capacity))
        return null;
      return { files: header.files, offsets, tables, data: header.data };
    } catch {
      return null;
    }
  }

  /** A page's phrases as the state places them; null when they cannot be read. See PhraseReader. */
  phrases(offset: number, count: number): Uint32Array | null {
    return this.reader.read(this.dataFd, offset, count);
  }

  close(): void {
    closeSync(this.stateFd);
    closeSync(this.dataFd);
  }

  /**
   * Forgets the last audit before the output folder changes: a build that is killed after
   * changing the output, or that does not audit, must leave no phrases of files that are gone.
   * The phrases file stays for a build that audits (`audits`), which may append to it.
   */
  static discard(outDir: string, audits: boolean): void {
    const { state, data, oldIndex } = storeFiles(outDir);
    rmSync(state, { force: true });
    rmSync(oldIndex, { force: true });
    if (!audits) rmSync(data, { force: true });
  }
}

/** The last audit's state (see SavedAudit). */
export interface SavedState {
  /** The audited files, in page order. */
  files: string[];
  /** Where each page's phrases start in the phrases file (their count is tables.phrases). */
  offsets: Float64Array;
  tables: AuditTables;
  /**
   * The phrases file's identity, and where its last page's phrases end: what follows is a failed
   * build's, and free.
   */
  data: { ino: string; end: number };
}

/**
 * The phrases and state of this build's audit, written aside while it runs and put in place by
 * `commit` once the output is: a failed build leaves the last build's. Phrases are appended to
 * the last build's phrases file when `append` says where it ends (see SavedState.data), else
 * written to a new one.
 */
export class AuditWriter {
  private readonly tmp: { data: string; state: string };
  private readonly dataFd: number;
  private readonly fresh: boolean;
  private end: number;
  /** Where each page's phrases are, by page index. */
  private offsets = new Float64Array(1024);

  constructor(
    private readonly outDir: string,
    append: { ino: string; end: number } | null = null,
  ) {
    const { data, state } = storeFiles(outDir);
    this.tmp = { data: `${data}.${process.pid}.tmp`, state: `${state}.${process.pid}.tmp` };
    this.fresh = append === null;
    this.dataFd = openSync(append ? data : this.tmp.data, append ? 'r+' : 'w');
    if (append && inode(this.dataFd) !== append.ino) {
      closeSync(this.dataFd);
      throw new Error(`${data} changed while the audit ran`);
    }
    this.end = append?.end ?? 0;
  }

  /** Writes page `page`'s phrases. */
  add(page: number, phrases: Uint32Array): void {
    this.at(page, this.end);
    const bytes = new Uint8Array(phrases.buffer, phrases.byteOffset, phrases.byteLength);
    writeSync(this.dataFd, bytes, 0, bytes.length, this.end);
    this.end += bytes.length;
  }

  /** Page `page`'s phrases are where they were, at `offset` of the phrases appended to. */
  keep(page: number, offset: number): void {
    this.at(page, offset);
  }

  private at(page: number, offset: number): void {
    if (page >= this.offsets.length) {
      const more = new Float64Array(Math.max(page + 1, this.offsets.length * 2));
      more.set(this.offsets);
      this.offsets = more;
    }
    this.offsets[page] = offset;
  }

  /**
   * Puts the state of `tables` (of `files`, in page order) in place of the last, with the
   * phrases (called once the output is committed).
   */
  commit(files: readonly string[], tables: AuditTables, topics: string | null): void {
    const { data, state } = storeFiles(this.outDir);
    const header: Header = {
      format: FORMAT,
      littleEndian: LITTLE_ENDIAN,
      files: [...files],
      topics,
      table: tables.table.size,
      data: { ino: inode(this.dataFd), end: this.end },
    };
    const json = Buffer.from(JSON.stringify(header));
    const fd = openSync(this.tmp.state, 'w');
    try {
      const head = Buffer.alloc(align(4 + json.length));
      head.writeUInt32LE(json.length, 0);
      json.copy(head, 4);
      let at = writeSync(fd, head);
      const pages = files.length;
      for (const section of [
        this.offsets.subarray(0, pages),
        tables.phrases,
        tables.own,
        tables.ownSentences,
        tables.ownTopic,
        tables.signatures,
        tables.nearest.page,
        tables.nearest.equal,
      ]) {
        const bytes = new Uint8Array(section.buffer, section.byteOffset, section.byteLength);
        at += writeSync(fd, bytes);
        const pad = align(bytes.length) - bytes.length;
        if (pad > 0) at += writeSync(fd, new Uint8Array(pad));
      }
      tables.table.writeTo(fd, at);
    } finally {
      closeSync(fd);
    }
    closeSync(this.dataFd);
    if (this.fresh) renameSync(this.tmp.data, data);
    // The state last: a state never points into another build's phrases.
    renameSync(this.tmp.state, state);
  }

  /** Drops what was written (the build failed); appended phrases are left, as free space. */
  abort(): void {
    closeSync(this.dataFd);
    if (this.fresh) rmSync(this.tmp.data, { force: true });
    rmSync(this.tmp.state, { force: true });
  }
}

interface Header {
  format: number;
  littleEndian: boolean;
  files: string[];
  /** The digest of the lexicon the phrases were split by (see Topics), null for none. */
  topics: string | null;
  /** The phrase table's slots, and those with a key. */
  table: { capacity: number; used: number };
  /** The phrases file the state belongs to, and where its last page's phrases end. */
  data: { ino: string; end: number };
}

/** The sections after the header, each 8-byte aligned, read from the file one by one. */
class Sections {
  constructor(
    private readonly fd: number,
    public at: number,
  ) {}

  take<T extends Float64Array | Uint32Array | Int32Array | Uint16Array | Uint8Array>(
    Type: { new (length: number): T; BYTES_PER_ELEMENT: number },
    length: number,
  ): T {
    const out = new Type(length);
    const bytes = new Uint8Array(out.buffer);
    for (let done = 0; done < bytes.length; ) {
      const n = readSync(this.fd, bytes, done, bytes.length - done, this.at + done);
      if (n === 0) throw new Error('the audit state is cut short');
      done += n;
    }
    this.at += align(bytes.length);
    return out;
  }
}

/** A file's inode number, which may not fit a double. */
const inode = (fd: number) => String(fstatSync(fd, { bigint: true }).ino);

const align = (n: number) => Math.ceil(n / 8) * 8;

const FORMAT = 4;
/** The files hold numbers as this machine does; a state written elsewhere is not read. */
const LITTLE_ENDIAN = os.endianness() === 'LE';

/** Beside the output folder, as its manifest: never published with the site. */
function storeFiles(outDir: string): { state: string; data: string; oldIndex: string } {
  const out = path.resolve(outDir);
  const base = path.join(path.dirname(out), `.${path.basename(out)}.audit-`);
  return {
    state: `${base}state.bin`,
    data: `${base}phrases.bin`,
    // The index of format 1, which kept only the phrases.
    oldIndex: `${base}phrases.json`,
  };
}
