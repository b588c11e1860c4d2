/**
 * The tab screen's chunk, loaded when a tab opens or once the list has shown: the full-screen
 * tab view, the desktop split, and the app's keyboard shortcuts (which arrive with it).
 */
import '../tab/tab-screen.js';
import '../workbench/workbench.js';

export { installAppShortcuts } from '../workbench/shortcut-actions.js';
