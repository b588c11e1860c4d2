/**
 * The page's title: what waits on the person first (the app's count), then the open tab's
 * name, so a desktop browser's tab strip and window list tell the terminals apart.
 */
export const SCREEN_NAME_EVENT = 'pm-screen-name';

/** `(2) api · pocketmux`, `api · pocketmux`, `(2) pocketmux` or `pocketmux`. */
export function pageTitle(waiting: number, screenName: string): string {
  const name = screenName.trim();
  return `${waiting > 0 ? `(${waiting}) ` : ''}${name ? `${name} · ` : ''}pocketmux`;
}

declare global {
  interface HTMLElementEventMap {
    /** What the screen on show is called: the page's title follows it. */
    'pm-screen-name': CustomEvent<string>;
  }
}
