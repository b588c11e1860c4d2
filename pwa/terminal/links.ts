/**
 * A link the terminal may open: an absolute http(s) URL, as the browser would read it; null
 * for anything else (`javascript:`, `file:`, a relative path, no URL at all).
 */
export function openableUrl(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text.trim());
  } catch {
    return null;
  }
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : null;
}

/** Opens a link printed in the terminal in a new tab that cannot reach back to this one. */
export function openLink(text: string): void {
  const url = openableUrl(text);
  if (url) window.open(url, '_blank', 'noopener,noreferrer');
}
