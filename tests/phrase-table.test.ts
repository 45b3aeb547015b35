import { closeSync, openSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PhraseTable } from '../src/audit/phrase-table.js';
import { StoredPhraseTable } from '../src/audit/stored-phrase-table.js';
import { tempDir } from './helpers.js';

/** Pages' phrases from a small range, so that many are shared; 0 and 1 share a key. */
const pages = fc.array(fc.uniqueArray(fc.nat(60), { maxLength: 30 }), {
  minLength: 1,
  maxLength: 12,
});

/** A table of `pages`, written to a file and opened there as the next build finds it. */
function stored(dir: string, name: string, table: PhraseTable) {
  const file = path.join(dir, name);
  const fd = openSync(file, 'w+');
  // Some bytes before the table, as in the state file.
  const before = 24;
  table.writeTo(fd, before);
  const { capacity, used } = table.size;
  return { fd, file, table: new StoredPhraseTable(fd, before, capacity, used) };
}

function written(dir: string, name: string, table: { writeTo(fd: number, at: number): number }) {
  const file = path.join(dir, name);
  const fd = openSync(file, 'w');
  table.writeTo(fd, 0);
  closeSync(fd);
  return readFileSync(file);
}

describe('the phrase table kept in its file', () => {
  it('counts, owns and writes as the table in memory, change for change', async () => {
    const dir = await tempDir();
    let run = 0;
    fc.assert(
      fc.property(
        pages,
        fc.array(fc.tuple(fc.nat(), fc.uniqueArray(fc.nat(60), { maxLength: 30 })), {
          maxLength: 6,
        }),
        (start, edits) => {
          run++;
          const memory = PhraseTable.empty(1 << 10);
          for (const [page, list] of start.entries())
            for (const phrase of list) memory.add(phrase, page);
          const file = stored(dir, `t${run}`, memory);
          try {
            const now = start.map((list) => [...list]);
            for (const [pick, after] of edits) {
              const page = pick % now.length;
              for (const phrase of now[page] as number[])
                expect(file.table.remove(phrase, page)).toBe(memory.remove(phrase, page));
              for (const phrase of after)
                expect(file.table.add(phrase, page)).toBe(memory.add(phrase, page));
              now[page] = after;
            }
            expect(file.table.size).toEqual(memory.size);
            expect(written(dir, `a${run}`, file.table)).toEqual(written(dir, `b${run}`, memory));
          } finally {
            closeSync(file.fd);
          }
        },
      ),
      { numRuns: 100 },
    );
  });

  it('is read whole and grows when it fills up, and still counts as the table in memory', async () => {
    const dir = await tempDir();
    const memory = PhraseTable.empty(16);
    for (let phrase = 100; phrase < 108; phrase++) memory.add(phrase, 0);
    const file = stored(dir, 'small', memory);
    try {
      for (let phrase = 0; phrase < 40; phrase++)
        expect(file.table.add(phrase, 1)).toBe(memory.add(phrase, 1));
      for (let phrase = 100; phrase < 108; phrase++)
        expect(file.table.remove(phrase, 0)).toBe(memory.remove(phrase, 0));
      expect(file.table.size.capacity).toBeGreaterThan(16);
      expect(file.table.size).toEqual(memory.size);
      expect(written(dir, 'a', file.table)).toEqual(written(dir, 'b', memory));
      // A phrase the page does not have is an error, not a count below zero.
      expect(() => file.table.remove(5000, 1)).toThrow(/no phrase 5000/);
    } finally {
      closeSync(file.fd);
    }
  });
});
