/**
 * What a tab screen asks of the desktop split around it, by event: the screen does not know
 * the workbench, it only asks, and the workbench decides.
 */

/** Close the pane this screen fills (its session ended, or the person asked). */
export const CLOSE_PANE_EVENT = 'pm-close-pane';

export function closePaneEvent(): CustomEvent<null> {
  return new CustomEvent(CLOSE_PANE_EVENT, { detail: null, bubbles: true, composed: true });
}

declare global {
  interface HTMLElementEventMap {
    'pm-close-pane': CustomEvent<null>;
  }
}
