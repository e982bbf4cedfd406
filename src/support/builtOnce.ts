/**
 * `build` memoised per key object: the result is built on the first call with a key and shared by
 * every later one. For values derived from configuration loaded once and never mutated (an edition's
 * validation rules, the limits, an archetype row): built at most once per object, never per request,
 * and released with the key (WeakMap).
 */
export function builtOncePer<K extends object, V>(build: (key: K) => V): (key: K) => V {
  const built = new WeakMap<K, V>();
  return (key) => {
    // One lookup on a hit (models of a fleet's items ask per component); `has` only for an undefined value.
    const known = built.get(key);
    if (known !== undefined || built.has(key)) return known as V;
    const value = build(key);
    built.set(key, value);
    return value;
  };
}
