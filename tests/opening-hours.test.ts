import { describe, expect, it } from 'vitest';
import { hoursNotice, openingHours } from '../src/site/opening-hours.js';

describe("site.json's office hours, read for search engines (openingHours)", () => {
  it('reads the forms owners write, the time zone dropped (schema.org hours are local)', () => {
    const read: Array<[string, string[]]> = [
      ['Mon-Fri 9am-8pm EST', ['Mo-Fr 09:00-20:00']],
      ['Mon-Fri 8:30am-5pm MST', ['Mo-Fr 08:30-17:00']],
      ['Monday to Friday, 9 a.m. to 5 p.m.', ['Mo-Fr 09:00-17:00']],
      ['Mon–Fri 9am–8pm, Sat 10am–2pm', ['Mo-Fr 09:00-20:00', 'Sa 10:00-14:00']],
      ['Mon-Fri 9:00-17:00; Sat 10:00-14:00', ['Mo-Fr 09:00-17:00', 'Sa 10:00-14:00']],
      ['Mon-Fri 9-5pm and Sat 10-2pm (Eastern Time)', ['Mo-Fr 09:00-17:00', 'Sa 10:00-14:00']],
      ['Weekdays 9-5', ['Mo-Fr 09:00-17:00']],
      ['Mon, Wed, Fri 9am-5pm', ['Mo,We,Fr 09:00-17:00']],
      ['Tue-Sat noon-8pm', ['Tu-Sa 12:00-20:00']],
      ['Daily 7am-midnight', ['Mo-Su 07:00-23:59']],
      ['24/7', ['Mo-Su 00:00-23:59']],
    ];
    for (const [text, hours] of read) expect(openingHours(text), text).toEqual(hours);
  });

  it('gives nothing for hours it cannot be sure of, and generate says so', () => {
    for (const text of [
      'By appointment',
      '9am-5pm',
      'Mon-Fri 9am-late',
      'Mon-Fri 5pm-9am',
      'Mon-Fri 9am-13pm',
    ])
      expect(openingHours(text), text).toBeNull();
    expect(hoursNotice('By appointment')).toContain(
      'site.json officeHours "By appointment" is shown as written, but search engines are not given the hours',
    );
    expect(hoursNotice('Mon-Fri 9am-8pm EST')).toBe('');
  });
});
