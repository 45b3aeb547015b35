/**
 * The nearest cities to each city, found through a k-d tree so that finding them for every city
 * takes time in proportion to the number of cities (times its logarithm), not its square,
 * however the cities cluster: a city is measured only against the cities of the tree's
 * branches that could hold one nearer than the nearest found so far.
 *
 * Cities are placed by their position on the unit sphere (x, y, z), so that straight-line
 * (chord) distance orders them exactly as great-circle distance does, and a branch's distance is
 * bounded from below by the distance to its splitting plane. Distances themselves are
 * great-circle kilometres, as before.
 */

/** Something with a place: a city. */
interface Placed {
  coordinates: { lat: number; lng: number };
}

const EARTH_RADIUS_KM = 6371;

/** Great-circle distance in kilometres. */
export function distanceKm(a: Placed['coordinates'], b: Placed['coordinates']): number {
  const rad = Math.PI / 180;
  const dLat = (b.lat - a.lat) * rad;
  const dLng = (b.lng - a.lng) * rad;
  const h =
    Math.sin(dLat / 2) ** 2 +
    Math.cos(a.lat * rad) * Math.cos(b.lat * rad) * Math.sin(dLng / 2) ** 2;
  return 2 * EARTH_RADIUS_KM * Math.asin(Math.sqrt(h));
}

/** The count of distances measured since the process started: tests check it grows linearly. */
export const measured = { distances: 0 };

/** Leaves of at most this many cities are measured one by one. */
const LEAF = 8;

export class NearbyIndex<T extends Placed> {
  private readonly points: Float64Array;
  /** Item indices, arranged as the tree: each range's middle splits it on `axes[middle]`. */
  private readonly order: Int32Array;
  private readonly axes: Uint8Array;

  /**
   * `items` in the order ties are broken by (after population, see `nearest`): the order the
   * site lists its cities in.
   */
  constructor(
    private readonly items: readonly T[],
    private readonly population: (item: T) => number,
  ) {
    this.points = new Float64Array(items.length * 3);
    for (const [i, item] of items.entries()) this.points.set(toUnit(item.coordinates), i * 3);
    this.order = Int32Array.from(items.keys());
    this.axes = new Uint8Array(items.length);
    this.build(0, items.length);
  }

  /**
   * The n items nearest to items[self], nearest first; ties by larger population, then by
   * their order in `items`. Never the item itself.
   */
  nearest(self: number, n: number): T[] {
    const me = this.items[self];
    if (!me || n <= 0) return [];
    const best: Array<{ i: number; d: number }> = [];
    const closer = (x: { i: number; d: number }, y: { i: number; d: number }) =>
      x.d < y.d ||
      (x.d === y.d &&
        (this.pop(x.i) > this.pop(y.i) || (this.pop(x.i) === this.pop(y.i) && x.i < y.i)));
    const consider = (i: number) => {
      if (i === self) return;
      const other = this.items[i];
      if (!other) return;
      measured.distances++;
      const entry = { i, d: distanceKm(me.coordinates, other.coordinates) };
      const last = best[best.length - 1];
      if (best.length === n && last && !closer(entry, last)) return;
      let at = best.length;
      while (at > 0 && closer(entry, best[at - 1] as { i: number; d: number })) at--;
      best.splice(at, 0, entry);
      if (best.length > n) best.pop();
    };
    // A branch beyond its splitting plane is looked into only while it could hold a city as
    // near as the n-th found (as near: it could tie).
    const reach = () => {
      const worst = best.length === n ? best[n - 1] : undefined;
      return worst ? chordOfKm(worst.d) + 1e-9 : Infinity;
    };
    const search = (lo: number, hi: number) => {
      if (hi - lo <= LEAF) {
        for (let k = lo; k < hi; k++) consider(this.order[k] ?? -1);
        return;
      }
      const mid = (lo + hi) >> 1;
      const at = this.order[mid] ?? 0;
      const axis = this.axes[mid] ?? 0;
      const diff = (this.points[self * 3 + axis] ?? 0) - (this.points[at * 3 + axis] ?? 0);
      const [near, far] =
        diff < 0
          ? [
              [lo, mid],
              [mid + 1, hi],
            ]
          : [
              [mid + 1, hi],
              [lo, mid],
            ];
      search(near[0] ?? 0, near[1] ?? 0);
      if (Math.abs(diff) <= reach()) {
        consider(at);
        search(far[0] ?? 0, far[1] ?? 0);
      }
    };
    search(0, this.items.length);
    return best.map((x) => this.items[x.i] as T);
  }

  private pop(i: number): number {
    const item = this.items[i];
    return item ? this.population(item) : 0;
  }

  /** Arranges order[lo, hi) as a subtree: split at its middle on the axis it spreads most along. */
  private build(lo: number, hi: number): void {
    if (hi - lo <= LEAF) return;
    const p = this.points;
    let axis = 0;
    let spread = -1;
    for (let d = 0; d < 3; d++) {
      let min = Infinity;
      let max = -Infinity;
      for (let k = lo; k < hi; k++) {
        const v = p[(this.order[k] ?? 0) * 3 + d] ?? 0;
        if (v < min) min = v;
        if (v > max) max = v;
      }
      if (max - min > spread) {
        spread = max - min;
        axis = d;
      }
    }
    const range = Array.from(this.order.subarray(lo, hi)).sort(
      (a, b) => (p[a * 3 + axis] ?? 0) - (p[b * 3 + axis] ?? 0) || a - b,
    );
    this.order.set(range, lo);
    const mid = (lo + hi) >> 1;
    this.axes[mid] = axis;
    this.build(lo, mid);
    this.build(mid + 1, hi);
  }
}

function toUnit({ lat, lng }: Placed['coordinates']): [number, number, number] {
  const rad = Math.PI / 180;
  const phi = lat * rad;
  const lambda = lng * rad;
  return [Math.cos(phi) * Math.cos(lambda), Math.cos(phi) * Math.sin(lambda), Math.sin(phi)];
}

/** The straight-line distance on the unit sphere of a great-circle distance in km. */
function chordOfKm(km: number): number {
  return 2 * Math.sin(km / (2 * EARTH_RADIUS_KM));
}
