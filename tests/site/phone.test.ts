import { describe, expect, it } from 'vitest';
import { FORMATS } from '../../src/site/format.js';
import { parsePhone } from '../../src/site/phone.js';
import { links } from '../../src/urls.js';

const tel = (text: string) => {
  const parsed = parsePhone(text);
  if ('error' in parsed) throw new Error(parsed.error);
  return links.tel(parsed.phone);
};

describe("the site's phone number", () => {
  it('calls a North American number in every way owners write one, as +1 and ten digits', () => {
    for (const written of [
      '416-555-0123',
      '(416) 555-0123',
      '416.555.0123',
      '4165550123',
      '1-416-555-0123',
      '+1 416 555 0123',
      ' 416 555 0123 ',
    ])
      expect(tel(written), written).toBe('tel:+14165550123');
    expect(tel('1-888-339-9809')).toBe('tel:+18883399809');
  });

  it('dials an extension as RFC 3966 writes it, after the number', () => {
    expect(tel('416-555-0123 ext. 22')).toBe('tel:+14165550123;ext=22');
    expect(tel('(416) 555-0123 x22')).toBe('tel:+14165550123;ext=22');
  });

  it('refuses what is not a North American number, saying what it is and how to write one', () => {
    const error = (text: string) => {
      const parsed = parsePhone(text);
      return 'error' in parsed ? parsed.error : null;
    };
    expect(error('call us anytime')).toMatch(
      /"call us anytime" is not a phone number: write it as 416-555-0123/,
    );
    expect(error('+44 20 7946 0958')).toMatch(/not a North American number \(\+1\)/);
    // No area code 123; seven digits alone have no area code.
    expect(error('123-456-7890')).toMatch(/not a valid North American number/);
    expect(error('555-0123')).toMatch(/not a valid North American number/);
    expect(error('911')).not.toBeNull();
  });

  it('is shown as written on English pages, and as Québec writes it on French ones', () => {
    const shown = (text: string) => {
      const parsed = parsePhone(text);
      if ('error' in parsed) throw new Error(parsed.error);
      return [FORMATS.en.phone(parsed.phone), FORMATS.fr.phone(parsed.phone)];
    };
    expect(shown('1-888-339-9809')).toEqual(['1-888-339-9809', '1\u00a0888\u00a0339-9809']);
    expect(shown('(416) 555-0123')).toEqual(['(416) 555-0123', '416\u00a0555-0123']);
    expect(shown('416-555-0123 ext. 22')).toEqual([
      '416-555-0123 ext. 22',
      '416\u00a0555-0123\u00a0poste\u00a022',
    ]);
  });
});
