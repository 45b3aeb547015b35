import { createContext, createElement, type ReactElement, useContext } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { keepNumbersWhole } from './keep-numbers-whole.js';

/**
 * Fragments shared by many pages (header, footer, forms, testimonials, FAQ blocks) are rendered
 * once per distinct component and props, and reused as HTML: a build renders a few hundred
 * fragments instead of the same markup thousands of times. A fragment's key is derived from what
 * it renders (see Shared), never written by hand.
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
  private marker(key: string, render: () => ReactElement): number {
    let index = this.byKey.get(key);
    if (index === undefined) {
      index = this.next++;
      this.bytes.set(index, Buffer.from(keepNumbersWhole(renderToStaticMarkup(render()))));
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

  /** The element standing for `component` with `props` in a page: its marker, rendered once. */
  element<P extends object>(component: (props: P) => ReactElement, props: P): ReactElement {
    const key = `${componentId(component)}:${propsKey(props)}`;
    return createElement(TAG, {
      'data-i': this.marker(key, () => createElement(component, props)),
    });
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

/** The fragment cache of the page being rendered; none renders shared fragments in place. */
export const FragmentContext = createContext<FragmentCache | null>(null);

/**
 * A fragment many pages share: `component` rendered with `props`. Its HTML depends on nothing
 * else (a component here reads only its props), so the component and the props are its key:
 * the same pair anywhere in the build is rendered once. Without a cache it renders in place.
 */
export function Shared<P extends object>({
  component,
  props,
}: {
  component: (props: P) => ReactElement;
  props: P;
}): ReactElement {
  const cache = useContext(FragmentContext);
  return cache ? cache.element(component, props) : createElement(component, props);
}

/** Each component function an id of its own, for the life of the process. */
const componentIds = new WeakMap<object, number>();
let nextComponentId = 0;
function componentId(component: object): number {
  let id = componentIds.get(component);
  if (id === undefined) {
    id = nextComponentId++;
    componentIds.set(component, id);
  }
  return id;
}

/**
 * A key for props that two renders share only if they render the same: a string as itself
 * (length first, so no two props can run into each other), another primitive as its JSON, an
 * object or list as itself, by an id of its own. The site model does not change during a build
 * and pages pass its objects along rather than copies, so the same object is the same content;
 * an equal copy would only be rendered once more. Props are written in the same order at each
 * place they are, so their order need not be sorted.
 */
const objectIds = new WeakMap<object, number>();
let nextObjectId = 0;
function propsKey(props: object): string {
  let key = '';
  for (const name in props) {
    const value = (props as Record<string, unknown>)[name];
    if (typeof value === 'string') key += `${name}:${value.length}:${value};`;
    else if (typeof value === 'object' && value !== null) {
      let id = objectIds.get(value);
      if (id === undefined) {
        id = nextObjectId++;
        objectIds.set(value, id);
      }
      key += `${name}#${id};`;
    } else if (typeof value === 'function')
      throw new Error(`a shared fragment's props are data: ${name} is a function`);
    else key += `${name}=${JSON.stringify(value)};`;
  }
  return key;
}
