import { describe, expect, it } from 'vitest';
import { keepNumbersWhole } from '../src/render/keep-numbers-whole.js';

const whole = (n: string) => `<span class="nowrap">${n}</span>`;

describe('phone numbers in running text', () => {
  it('are kept whole in each way the site writes them', () => {
    for (const n of [
      '1-888-339-9809',
      '1\u00a0888\u00a0339-9809',
      '416-555-0123',
      '416\u00a0555-0123',
      '(416) 555-0123',
      '1 800 668-6623',
      '(416) 555-0123 ext. 22',
      '416-555-0123 x22',
      '416\u00a0555-0123\u00a0poste\u00a022',
    ])
      expect(keepNumbersWhole(`<p>Call ${n}, day or night.</p>`)).toBe(
        `<p>Call ${whole(n)}, day or night.</p>`,
      );
  });

  it('in a link, after other markup, and each of several', () => {
    expect(keepNumbersWhole('<p><strong>Urgent?</strong> 1-888-339-9809 or 416-555-0123</p>')).toBe(
      `<p><strong>Urgent?</strong> ${whole('1-888-339-9809')} or ${whole('416-555-0123')}</p>`,
    );
    expect(keepNumbersWhole('<a href="tel:+18883399809">1-888-339-9809</a>')).toBe(
      `<a href="tel:+18883399809">${whole('1-888-339-9809')}</a>`,
    );
  });

  it('are left alone inside a tag and in text that cannot hold markup', () => {
    for (const html of [
      '<a aria-label="Call 1-888-339-9809" href="tel:+18883399809">Call</a>',
      '<meta name="description" content="Call 1-888-339-9809"/>',
      '<title>Call 1-888-339-9809 | ClaimRight</title>',
      '<script type="application/ld+json">{"telephone":"1-888-339-9809"}</script>',
      '<textarea>1-888-339-9809</textarea>',
      '<option value="x">1-888-339-9809</option>',
    ])
      expect(keepNumbersWhole(html)).toBe(html);
  });

  it('leave other figures alone: a year, a range, a longer digit run', () => {
    for (const html of [
      '<p>2021-2024 and 5-15% of 20,000</p>',
      '<p>Ref 12-888-339-98091</p>',
      '<p>+1-888-339-9809x</p>',
    ])
      expect(keepNumbersWhole(html)).toBe(html);
  });
});
