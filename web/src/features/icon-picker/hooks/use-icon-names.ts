import { useEffect, useState } from 'react';

let names: readonly string[] | null = null;

/**
 * Every Material icon name, from the material-icons package's own list (about 2,100 names, a
 * separate chunk fetched the first time a picker opens).
 */
export async function loadIconNames(): Promise<readonly string[]> {
  if (!names) {
    const { default: versions } = await import('material-icons/_data/versions.json');
    names = Object.keys(versions).sort();
  }
  return names;
}

/** The icon names, or null while they load. */
export function useIconNames(): readonly string[] | null {
  const [loaded, setLoaded] = useState(names);
  useEffect(() => {
    if (loaded) return;
    let live = true;
    void loadIconNames().then((list) => {
      if (live) setLoaded(list);
    });
    return () => {
      live = false;
    };
  }, [loaded]);
  return loaded;
}
