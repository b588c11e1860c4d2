/**
 * The terminal's text size, chosen per device: kept in localStorage, bounded, and by default
 * a little smaller on a touch screen, where columns are scarce.
 */
export const FONT_SIZE_MIN = 8;
export const FONT_SIZE_MAX = 32;
export const FONT_SIZE_STORAGE_KEY = 'pm-terminal-font-size';

export type FontSizeStep = 'bigger' | 'smaller' | 'reset';

export function defaultFontSize(touch: boolean): number {
  return touch ? 13 : 14;
}

/** A whole number of pixels within the bounds. */
export function clampFontSize(size: number): number {
  return Math.min(FONT_SIZE_MAX, Math.max(FONT_SIZE_MIN, Math.round(size)));
}

/** A saved value as a size; null for nothing saved or anything that is not a plain number. */
export function parseFontSize(saved: string | null | undefined): number | null {
  if (saved == null || !/^\s*\d{1,3}(\.\d+)?\s*$/.test(saved)) return null;
  return clampFontSize(Number(saved));
}

/** The size after a step; `reset` goes back to the device's default. */
export function stepFontSize(size: number, step: FontSizeStep, fallback: number): number {
  if (step === 'reset') return clampFontSize(fallback);
  return clampFontSize(size + (step === 'bigger' ? 1 : -1));
}

type SizeStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

function storage(): SizeStorage | null {
  try {
    return globalThis.localStorage ?? null;
  } catch {
    // A blocked site's storage throws on access.
    return null;
  }
}

/** The size saved on this device, else the default. */
export function loadFontSize(touch: boolean, store: SizeStorage | null = storage()): number {
  try {
    return parseFontSize(store?.getItem(FONT_SIZE_STORAGE_KEY)) ?? defaultFontSize(touch);
  } catch {
    return defaultFontSize(touch);
  }
}

/** Keeps `size`; the default size is kept as nothing saved, so it follows the device. */
export function saveFontSize(size: number, touch: boolean, store: SizeStorage | null = storage()): void {
  try {
    if (size === defaultFontSize(touch)) store?.removeItem(FONT_SIZE_STORAGE_KEY);
    else store?.setItem(FONT_SIZE_STORAGE_KEY, String(clampFontSize(size)));
  } catch {
    // Storage full or refused: the size holds until the page is left.
  }
}
