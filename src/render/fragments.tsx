import { createElement, Fragment, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/**
 * Fragments shared by many pages (header, footer, forms, testimonials, FAQ blocks) are rendered
 * once per distinct input and reused as HTML: a build renders a few hundred fragments instead
 * of the same markup thousands of times. Keys must name every input a fragment depends on.
 */
export class FragmentCache {
  private readonly byKey = new Map<string, number>();
  private readonly html: string[] = [];
  private readonly bytes: Buffer[] = [];

  /** The marker standing for a fragment, rendering it on first use. */
  marker(key: string, render: () => ReactElement): number {
    let index = this.byKey.get(key);
    if (index === undefined) {
      index = this.html.length;
      this.html.push(renderToStaticMarkup(render()));
      this.byKey.set(key, index);
    }
    return index;
  }

  /** Replaces the markers a page render left with their HTML (a split: faster than a regex scan). */
  fill(page: string): string {
    return this.assemble(
      page,
      (text) => text,
      (i) => this.html[i] ?? '',
    ).join('');
  }

  /**
   * As `fill`, as UTF-8 bytes: each fragment is encoded once, not once per page (pages with a
   * character beyond Latin-1 are two-byte strings, and encoding them was a tenth of a build).
   */
  fillBytes(page: string): Buffer {
    return Buffer.concat(
      this.assemble(
        page,
        (text) => Buffer.from(text),
        (i) => {
          let bytes = this.bytes[i];
          if (!bytes) {
            bytes = Buffer.from(this.html[i] ?? '');
            this.bytes[i] = bytes;
          }
          return bytes;
        },
      ),
    );
  }

  private assemble<T>(page: string, text: (s: string) => T, fragment: (i: number) => T): T[] {
    const parts = page.split(OPEN);
    const out: T[] = [text(parts[0] ?? '')];
    for (let k = 1; k < parts.length; k++) {
      const part = parts[k] ?? '';
      const end = part.indexOf(CLOSE);
      out.push(fragment(Number(part.slice(0, end))), text(part.slice(end + CLOSE.length)));
    }
    return out;
  }

  get size(): number {
    return this.html.length;
  }
}

const TAG = 'claimsite-fragment';
const OPEN = `<${TAG} data-i="`;
const CLOSE = `"></${TAG}>`;

/** Renders are synchronous, so the cache in use is simply the one set around the current render. */
let active: FragmentCache | null = null;

export function renderWith<T>(cache: FragmentCache | undefined, fn: () => T): T {
  const previous = active;
  active = cache ?? null;
  try {
    return fn();
  } finally {
    active = previous;
  }
}

/** A shared fragment: `id` must determine the output completely. Without a cache it renders inline. */
export function Memo({ id, children }: { id: string; children: () => ReactElement }): ReactElement {
  if (!active) return createElement(Fragment, null, children());
  return createElement(TAG, { 'data-i': active.marker(id, children) });
}
