/** A selection larger than this (as base64) is not copied: no program means to set megabytes. */
export const MAX_OSC52_BASE64 = 1_000_000;

/**
 * The text of an OSC 52 "set the clipboard" sequence (`52;c;<base64>`, here the part after
 * `52;`), as tmux sends it when a mouse selection in its copy mode ends. Null for a query
 * (`?`), which is never answered (a program would read the clipboard), and for anything
 * malformed or too large.
 */
export function osc52Text(data: string): string | null {
  const semi = data.indexOf(';');
  if (semi < 0) return null;
  const payload = data.slice(semi + 1);
  if (payload === '' || payload === '?' || payload.length > MAX_OSC52_BASE64) return null;
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload) || payload.length % 4 === 1) return null;
  let binary: string;
  try {
    binary = atob(payload);
  } catch {
    return null;
  }
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}
