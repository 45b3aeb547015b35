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

  /** Replaces the markers a page render left with their HTML. */
  fill(page: string): string {
    return this.assemble(page).toBuffer().toString();
  }

  /**
   * A page with its markers resolved, ready to be copied where it is written: its own text is
   * encoded straight into the destination and each fragment's bytes copied, so a page costs no
   * allocation of its own (on this machine, fresh memory for every page cost more than the copy).
   */
  assemble(page: string): PageBytes {
    // A split on the marker is faster than a regex scan.
    const parts = page.split(OPEN);
    const texts: string[] = [parts[0] ?? ''];
    const fragments: Buffer[] = [];
    let size = Buffer.byteLength(texts[0] as string);
    for (let k = 1; k < parts.length; k++) {
      const part = parts[k] ?? '';
      const end = part.indexOf(CLOSE);
      const fragment = this.bytes.get(Number(part.slice(0, end))) ?? EMPTY;
      const text = part.slice(end + CLOSE.length);
      fragments.push(fragment);
      texts.push(text);
      size += fragment.length + Buffer.byteLength(text);
    }
    // Between pages, when no marker is waiting to be filled.
    for (const [key, index] of this.byKey) {
      if (this.byKey.size <= this.limit) break;
      this.byKey.delete(key);
      this.bytes.delete(index);
    }
    return new PageBytes(texts, fragments, size);
  }

  get size(): number {
    return this.byKey.size;
  }
}

const TAG = 'claimsite-fragment';
const OPEN = `<${TAG} data-i="`;
const CLOSE = `"></${TAG}>`;
const EMPTY = Buffer.alloc(0);

/** A page's bytes in pieces: its own text between shared fragments, and their total size. */
export class PageBytes {
  constructor(
    private readonly texts: readonly string[],
    private readonly fragments: readonly Buffer[],
    readonly size: number,
  ) {}

  /** Writes the page into `target` at `offset` (room for `size` bytes is the caller's). */
  copyTo(target: Buffer, offset: number): void {
    let at = offset + target.write(this.texts[0] ?? '', offset);
    for (const [k, fragment] of this.fragments.entries()) {
      at += fragment.copy(target, at);
      at += target.write(this.texts[k + 1] ?? '', at);
    }
  }

  toBuffer(): Buffer {
    const out = Buffer.allocUnsafe(this.size);
    this.copyTo(out, 0);
    return out;
  }
}

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
