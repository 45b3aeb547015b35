import type { Page } from 'playwright-core';

/**
 * What the layout test measures on a page in Chromium, one function a rule, each returning the
 * page's faults as short lines (empty when none). Kept apart from the test so that a rule reads
 * as one piece and the test as the list of pages and widths it is checked on.
 */

/**
 * Every list set as a grid in the main part (but in a form, a carousel or a menu): its rows full
 * or its last row starting at the grid's left edge; a grid of cards with the cards of a row one
 * height (the card a visitor sees: the item, or the one box it holds) and their closing links on
 * one line; a grid of lines (a checklist) in as many columns as divide its count, so that no
 * row is left short.
 */
export async function gridProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const grids = [...document.querySelectorAll('main ul, main ol, main dl')].filter((g) => {
      const d = getComputedStyle(g).display;
      return (
        (d === 'grid' || d === 'flex') &&
        g.children.length > 1 &&
        !g.closest('form, [data-carousel], nav')
      );
    });
    const isCard = (el: Element): boolean => {
      const c = getComputedStyle(el);
      return (
        Number.parseFloat(c.borderTopWidth) > 0 ||
        c.boxShadow !== 'none' ||
        c.backgroundColor !== 'rgba(0, 0, 0, 0)'
      );
    };
    // The box a visitor sees as the card: the item itself, or the one element it wraps.
    const cardOf = (el: Element): Element | null => {
      if (isCard(el)) return el;
      const only = el.children.length === 1 ? el.firstElementChild : null;
      return only && isCard(only) ? only : null;
    };
    for (const g of grids) {
      const name = `${g.tagName.toLowerCase()}.${[...g.classList].join('.')}`;
      const box = g.getBoundingClientRect();
      if (box.width === 0) continue;
      const cs = getComputedStyle(g);
      const left = box.left + Number.parseFloat(cs.paddingLeft);
      // Lined up with the section's heading.
      const section = g.closest('section');
      const heading = [...(section?.querySelectorAll('h2') ?? [])].find((h) => !g.contains(h));
      if (heading && Math.abs(heading.getBoundingClientRect().left - left) > 1)
        out.push(
          `${name}: starts at ${Math.round(left)}, its heading at ${Math.round(heading.getBoundingClientRect().left)}`,
        );
      // A flex list of chips or links wraps as its words do: only grids have rows to fill.
      if (cs.display !== 'grid') continue;
      const items = [...g.children].filter((c) => c.getBoundingClientRect().width > 0);
      const rows: Element[][] = [];
      for (const el of items) {
        const top = el.getBoundingClientRect().top;
        const row = rows.find((x) => Math.abs((x[0]?.getBoundingClientRect().top ?? 0) - top) < 2);
        if (row) row.push(el);
        else rows.push([el]);
      }
      const perRow = rows[0]?.length ?? 0;
      rows.forEach((row, i) => {
        if (i < rows.length - 1 && row.length !== perRow)
          out.push(`${name}: row ${i + 1} has ${row.length} of ${perRow}`);
      });
      const last = rows.at(-1) ?? [];
      const cards = items.every((el) => cardOf(el) !== null);
      if (rows.length > 1 && last.length < perRow) {
        const start = last[0]?.getBoundingClientRect().left ?? 0;
        if (!cards)
          out.push(`${name}: ${items.length} lines in ${perRow} columns leave ${last.length}`);
        else if (Math.abs(start - left) > 2)
          out.push(
            `${name}: last row of ${last.length} (of ${perRow}) starts at ${Math.round(start)}, the grid at ${Math.round(left)}`,
          );
      }
      if (!cards) continue;
      rows.forEach((row, i) => {
        const seen = row.map((el) => cardOf(el) as Element);
        const heights = seen.map((c) => Math.round(c.getBoundingClientRect().height));
        if (Math.max(...heights) - Math.min(...heights) > 1)
          out.push(`${name}: row ${i + 1} has cards of heights ${heights.join(', ')}`);
        // A card's own last link (its "more" link), when every card of the row ends with one:
        // the links end on one line (a link of two lines starts a line higher).
        const links = seen.map((c) => {
          const a = [...c.querySelectorAll('a')].at(-1)?.getBoundingClientRect();
          return a && a.bottom > c.getBoundingClientRect().bottom - 80
            ? Math.round(a.bottom)
            : null;
        });
        if (
          row.length > 1 &&
          links.every((y) => y !== null) &&
          Math.max(...(links as number[])) - Math.min(...(links as number[])) > 1
        )
          out.push(`${name}: row ${i + 1} has its cards' links at y ${links.join(', ')}`);
      });
    }
    return out;
  });
}

/**
 * Every container, grid and divider on the page's content column: each `.container`'s content
 * starting where the header's does, and no grid or drawn line (an `hr`, a top or bottom border
 * alone, a pseudo-element's border) reaching past its container's content or starting off it
 * (it may start at the container's left edge or, in a column of it, at its parent's).
 */
export async function offColumn(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    const content = (el: Element) => {
      const r = el.getBoundingClientRect();
      const cs = getComputedStyle(el);
      return {
        left: r.left + Number.parseFloat(cs.paddingLeft) + Number.parseFloat(cs.borderLeftWidth),
        right:
          r.right - Number.parseFloat(cs.paddingRight) - Number.parseFloat(cs.borderRightWidth),
      };
    };
    const label = (el: Element) =>
      `${el.tagName.toLowerCase()}${[...el.classList].map((c) => `.${c}`).join('')}`;
    const header = document.querySelector('.site-header .container');
    if (!header) return ['no header container'];
    const column = content(header);
    for (const c of document.querySelectorAll('.container')) {
      if (c.getBoundingClientRect().width === 0 || c.closest('[hidden]')) continue;
      const own = content(c);
      if (Math.abs(own.left - column.left) > 2 || Math.abs(own.right - column.right) > 2)
        out.push(
          `${label(c)}: content ${Math.round(own.left)}-${Math.round(own.right)}, the column ${Math.round(column.left)}-${Math.round(column.right)}`,
        );
    }
    const check = (el: Element, from: number, to: number, what: string) => {
      const home = el.parentElement?.closest('.container');
      if (!home || to - from === 0) return;
      const col = content(home);
      const parent = el.parentElement ? content(el.parentElement) : col;
      const starts = Math.abs(from - col.left) <= 2 || Math.abs(from - parent.left) <= 2;
      if (!starts || to > col.right + 2 || from < col.left - 2)
        out.push(
          `${what} ${label(el)}: ${Math.round(from)}-${Math.round(to)}, its column ${Math.round(col.left)}-${Math.round(col.right)}`,
        );
    };
    for (const el of document.querySelectorAll('main ul, main ol, main dl, main hr, footer hr')) {
      const d = getComputedStyle(el).display;
      if (el.tagName !== 'HR' && d !== 'grid') continue;
      // A carousel's cards scroll past the column by design; a form's and a menu's are their own.
      if (el.closest('form, nav, [hidden], [data-carousel]') || el.classList.contains('container'))
        continue;
      const r = el.getBoundingClientRect();
      check(el, r.left, r.right, el.tagName === 'HR' ? 'divider' : 'grid');
    }
    // Lines drawn by a border on one side only, or by a pseudo-element's, in the page's frame.
    for (const el of document.querySelectorAll('main *, footer *')) {
      if (el.closest('form, [hidden], details, table, [data-carousel]')) continue;
      const r = el.getBoundingClientRect();
      if (r.width === 0) continue;
      const cs = getComputedStyle(el);
      const line = (s: CSSStyleDeclaration) =>
        (Number.parseFloat(s.borderTopWidth) > 0 || Number.parseFloat(s.borderBottomWidth) > 0) &&
        Number.parseFloat(s.borderLeftWidth) === 0 &&
        Number.parseFloat(s.borderRightWidth) === 0;
      // A line inside a card or a box of its own is that box's business.
      if (line(cs) && !el.closest('.card, .step, li li') && r.width > 200)
        check(el, r.left, r.right, 'divider');
      const before = getComputedStyle(el, '::before');
      if (before.content !== 'none' && line(before) && before.position === 'absolute') {
        const from = r.left + (Number.parseFloat(before.left) || 0);
        const to = r.right - (Number.parseFloat(before.right) || 0);
        if (to - from > 200) check(el, from, to, 'divider');
      }
    }
    return out;
  });
}

/**
 * The main part's full-width bands (its sections, and the sections inside its top-level
 * wrappers) with one background twice in a row: alternating grounds tell a section from the
 * next.
 */
export async function runsOfOneGround(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const bands = [...document.querySelectorAll('main section')].filter(
      (s) =>
        s.getBoundingClientRect().width >= document.documentElement.clientWidth - 1 &&
        s.getBoundingClientRect().height > 0 &&
        !s.parentElement?.closest('section'),
    );
    const ground = (el: Element) => {
      const cs = getComputedStyle(el);
      return cs.backgroundImage !== 'none' ? cs.backgroundImage : cs.backgroundColor;
    };
    const out: string[] = [];
    for (let i = 1; i < bands.length; i++) {
      const [a, b] = [bands[i - 1] as Element, bands[i] as Element];
      const same = (ground(a) === ground(b) ? ground(a) : null) ?? '';
      if (same)
        out.push(
          `${a.getAttribute('aria-labelledby') ?? a.className} then ${b.getAttribute('aria-labelledby') ?? b.className} on ${same.slice(0, 40)}`,
        );
    }
    return out;
  });
}
