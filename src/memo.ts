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
