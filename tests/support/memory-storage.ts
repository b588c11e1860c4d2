/** A Storage for tests of what a page keeps in localStorage: the three methods the app uses, over a Map the test can read. */
export function memoryStorage(initial: Record<string, string> = {}): {
  items: Map<string, string>;
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
} {
  const items = new Map(Object.entries(initial));
  return {
    items,
    getItem: (key) => items.get(key) ?? null,
    setItem: (key, value) => void items.set(key, value),
    removeItem: (key) => void items.delete(key),
  };
}
