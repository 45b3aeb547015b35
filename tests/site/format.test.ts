import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatDollars, formatLongDate, formatWhole } from '../../src/site/format.js';
import { PROVINCES } from '../../src/site/provinces.js';

// Intl is the reference: the site's own formatting exists only to spare its start-up cost.
const whole = new Intl.NumberFormat('en-CA');
const dollars = new Intl.NumberFormat('en-CA', {
  style: 'currency',
  currency: 'CAD',
  maximumFractionDigits: 0,
});

describe('number formats', () => {
  it('writes whole numbers and dollars as Intl does for en-CA', () => {
    for (const n of [0, 7, 999, 1000, 1001, 12_345, 999_999, 1_000_000, 2_794_356, -1, -4_500]) {
      expect(formatWhole(n)).toBe(whole.format(n));
      expect(formatDollars(n)).toBe(dollars.format(n));
    }
    fc.assert(
      fc.property(fc.integer({ min: -1e12, max: 1e12 }), (n) => {
        expect(formatWhole(n)).toBe(whole.format(n));
        expect(formatDollars(n)).toBe(dollars.format(n));
      }),
    );
  });
});

describe('dates', () => {
  it('writes a calendar date as Intl does for en-CA', () => {
    const long = (iso: string) =>
      new Date(`${iso}T12:00:00Z`).toLocaleDateString('en-CA', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
        timeZone: 'UTC',
      });
    fc.assert(
      fc.property(
        fc.date({ min: new Date('1900-01-01'), max: new Date('2199-12-31'), noInvalidDate: true }),
        (d) => {
          const iso = d.toISOString().slice(0, 10);
          expect(formatLongDate(iso)).toBe(long(iso));
        },
      ),
    );
    expect(() => formatLongDate('2026-13-01')).toThrow('not a date: 2026-13-01');
  });
});

describe('provinces', () => {
  it('are listed alphabetically, the provinces first and then the territories', () => {
    for (const territory of [false, true]) {
      const names = PROVINCES.filter((p) => p.territory === territory).map((p) => p.name);
      expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en-CA')));
    }
    expect(PROVINCES.findIndex((p) => p.territory)).toBe(
      PROVINCES.filter((p) => !p.territory).length,
    );
  });
});
