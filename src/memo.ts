/**
 * `make`, run once per key object and kept as long as the key lives. The site model does not
 * change during a build, so what many pages derive from the same part of it is made once.
 */
export function memoize<K extends object, V>(make: (key: K) => V): (key: K) => V {
  const known = new WeakMap<K, V>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = make(key);
      known.set(key, value);
    }
    return value;
  };
}

/**
 * `make`, run once per key while the key is among the last `size` asked for. For what a build
 * derives from one city: its pages are made together, a unit at a time, so a city's value is
 * asked for again only while its unit is made, and keeping every city's would grow with the
 * site (issue 21's flat memory).
 */
export function memoizeRecent<K extends object, V>(
  make: (key: K) => V,
  size = RECENT,
): (key: K) => V {
  const known = new Map<K, V>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined) {
      value = make(key);
      if (known.size >= size) known.delete(known.keys().next().value as K);
      known.set(key, value);
    }
    return value;
  };
}

/** Enough for a unit's cities in every language, and for the threads' units in between. */
const RECENT = 16;
