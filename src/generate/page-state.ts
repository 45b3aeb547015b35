/**
 * What the build's threads share of every page, by its index in the build's page order (unit
 * by unit, see src/pages.ts): typed arrays in one block of shared memory, a few bytes a page,
 * so that no thread holds a record per page. Written by the plan (render, owned), by whichever
 * thread renders a page (size) and by whichever writes it (changed).
 */
export class PageState {
  /** 1: render the page; 0: its file is kept as it is. */
  readonly render: Uint8Array;
  /** 1: the output folder's file at its path is the last build's (it may be replaced). */
  readonly owned: Uint8Array;
  /** 1: the commit changes its file (new, or other bytes). */
  readonly changed: Uint8Array;
  /** Its file's size in bytes. */
  readonly sizes: Int32Array;

  constructor(readonly buffer: SharedArrayBuffer) {
    const count = buffer.byteLength / BYTES_PER_PAGE;
    this.sizes = new Int32Array(buffer, 0, count);
    this.render = new Uint8Array(buffer, 4 * count, count);
    this.owned = new Uint8Array(buffer, 5 * count, count);
    this.changed = new Uint8Array(buffer, 6 * count, count);
  }

  static create(count: number): PageState {
    return new PageState(new SharedArrayBuffer(count * BYTES_PER_PAGE));
  }

  get count(): number {
    return this.sizes.length;
  }
}

const BYTES_PER_PAGE = 7;
