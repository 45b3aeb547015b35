import { hash } from 'node:crypto';

const QUOTE = 34;
const BACKSLASH = 92;
const COMMA = 44;
const OPEN_BRACE = 123;
const CLOSE_BRACE = 125;
const OPEN_BRACKET = 91;
const CLOSE_BRACKET = 93;

const isSpace = (c: number) => c === 32 || c === 10 || c === 13 || c === 9;

/**
 * A digest of each record of a JSON array of objects, written a piece at a time as the file is
 * read (see readJsonRecords): of the record's bytes as the file holds them, but for the spaces
 * and line breaks between its tokens, so that a file written again in another layout (an editor
 * that formats on save, a script that writes it minified) keeps its records' digests. It reads
 * structure only, JSON.parse checks the rest: a file it cannot follow (not an array of objects)
 * has no digests. Strings, most of a data file, are skipped with indexOf, a native search; UTF-8
 * never puts an ASCII byte inside a character of more bytes, so the bytes need no decoding.
 */
export class RecordDigests {
  private depth = 0;
  private inString = false;
  /** The next byte is escaped: a piece ended on the backslash. */
  private escaped = false;
  private broken = false;
  /** Whether a record is being read, and its bytes so far, but for the spaces between tokens. */
  private inRecord = false;
  private tokens = Buffer.allocUnsafeSlow(64 * 1024);
  private length = 0;
  private readonly digests: string[] = [];

  write(bytes: Buffer): void {
    if (this.broken) return;
    const n = bytes.length;
    // Where the record's current run of tokens (no spaces between) started in these bytes.
    let run = this.inRecord ? 0 : -1;
    // The next backslash at or after i, -1 for none; looked up again once i passes it.
    let slash = -2;
    let i = 0;
    if (this.escaped) {
      this.escaped = false;
      i = 1;
    }
    while (i < n) {
      if (this.inString) {
        if (slash !== -1 && slash < i) slash = bytes.indexOf(BACKSLASH, i);
        const quote = bytes.indexOf(QUOTE, i);
        if (slash >= 0 && (quote < 0 || slash < quote)) {
          i = slash + 2;
          if (i > n) this.escaped = true;
        } else if (quote < 0) i = n;
        else {
          this.inString = false;
          i = quote + 1;
        }
        continue;
      }
      const c = bytes[i] as number;
      if (isSpace(c)) {
        if (run >= 0) this.keep(bytes, run, i);
        run = -1;
        i++;
        continue;
      }
      if (this.inRecord && run < 0) run = i;
      if (!this.token(c)) {
        this.broken = true;
        return;
      }
      if (c === OPEN_BRACE && this.depth === 2) {
        this.inRecord = true;
        this.length = 0;
        run = i;
      } else if (c === CLOSE_BRACE && this.depth === 1) {
        this.keep(bytes, run, i + 1);
        this.digests.push(
          hash('sha256', this.tokens.subarray(0, this.length), 'base64url').slice(0, 22),
        );
        this.inRecord = false;
        run = -1;
      }
      i++;
    }
    if (run >= 0) this.keep(bytes, run, n);
  }

  /** The digests, in the file's order; null unless the file held exactly `count` records. */
  end(count: number): string[] | null {
    const whole = !this.broken && this.depth === 0 && !this.inString && !this.inRecord;
    return whole && this.digests.length === count ? this.digests : null;
  }

  /** Follows the structure through a byte outside strings; false where it is not an array of objects. */
  private token(c: number): boolean {
    if (c === QUOTE) {
      // A record is an object: a string among the array's elements is not one.
      this.inString = true;
      return this.depth > 1;
    }
    if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      const ok = this.depth === 0 ? c === OPEN_BRACKET : this.depth > 1 || c === OPEN_BRACE;
      this.depth++;
      return ok;
    }
    if (c === CLOSE_BRACE || c === CLOSE_BRACKET) return --this.depth >= 0;
    // Numbers, true, false, null: in a record only.
    return this.depth > 1 || (this.depth === 1 && c === COMMA);
  }

  /** Adds bytes[from, to) to the record's tokens. */
  private keep(bytes: Buffer, from: number, to: number): void {
    const need = this.length + to - from;
    if (need > this.tokens.length) {
      const grown = Buffer.allocUnsafeSlow(Math.max(need, 2 * this.tokens.length));
      this.tokens.copy(grown, 0, 0, this.length);
      this.tokens = grown;
    }
    // A short run (most: a key, a number, punctuation) costs less copied here than by a call.
    if (to - from < 32)
      for (let k = from; k < to; k++) this.tokens[this.length++] = bytes[k] as number;
    else {
      bytes.copy(this.tokens, this.length, from, to);
      this.length = need;
    }
  }
}
