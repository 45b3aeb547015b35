import { createElement, Fragment, type ReactElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';

/**
 * Fragments shared by many pages (header, footer, forms, testimonials, FAQ blocks) are rendered
 * once per distinct input and reused as HTML: a build renders a few hundred fragments instead
 * of the same markup thousands of times. Keys must name every input a fragment depends on.
 *
 * Kept as UTF-8 bytes, encoded once. Many fragments belong to one city (its header, footer,
 * calls to action), so the cache keeps the `limit` most recently used: a build that renders a
 * city at a time keeps its memory flat however many cities there are.
 */
export class FragmentCache {
  /** Key -> index, least recently used first. */
  private readonly byKey = new Map<string, number>();
  private readonly bytes = new Map<number, Buffer>();
  private next = 0;

  constructor(private readonly limit = 400) {}

  /** The marker standing for a fragment, rendering it on first use. */
  marker(key: string, render: () => ReactElement): number {
    let index = this.byKey.get(key);
    if (index === undefined) {
      index = this.next++;
      this.bytes.set(index, Buffer.from(renderToStaticMarkup(render())));
    } else this.byKey.delete(key);
    this.byKey.set(key, index);
    return index;
  }

  /** Replaces the markers a page render left with their HTML (a split: faster than a regex scan). */
  fill(page: string): string {
    return this.fillBytes(page).toString();
  }

  /** As `fill`, as the UTF-8 bytes the build writes: only the page's own text is encoded. */
  fillBytes(page: string): Buffer {
    const bytes = Buffer.concat(
      this.assemble(
        page,
        (text) => Buffer.from(text),
        (i) => this.bytes.get(i) ?? Buffer.alloc(0),
      ),
    );
    // Between pages, when no marker is waiting to be filled.
    for (const [key, index] of this.byKey) {
      if (this.byKey.size <= this.limit) break;
      this.byKey.delete(key);
      this.bytes.delete(index);
    }
    return bytes;
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
    return this.byKey.size;
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
