/**
 * Fired (bubbling, composed) by a view whose socket the agent closed because it has no tab or
 * Claude session by that address; the tab screen then shows that instead of tools that cannot work.
 */
export const TAB_MISSING_EVENT = 'pm-tab-missing';

declare global {
  interface HTMLElementEventMap {
    'pm-tab-missing': CustomEvent<undefined>;
  }
}
