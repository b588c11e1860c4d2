import { html } from 'lit';
import type { TabViewMode } from '../core/router.js';
import { searchIcon, textSizeIcon } from '../terminal/terminal-icons.js';
import { terminalIcon, timelineIcon } from '../ui/icons.js';
import { keysOf } from './shortcut-keys-text.js';

/** The header's find and text size: buttons for what the terminal's shortcuts also do. */
export interface ToolButtons {
  /** A terminal is attached: find has something to search. */
  readonly ready: boolean;
  readonly findOpen: boolean;
  readonly sizeOpen: boolean;
  toggleFind(): void;
  toggleSize(): void;
}

export function toolButtons(tools: ToolButtons) {
  return html`<span class="tools"><button
      class="icon ghost"
      aria-label="Find"
      title=${`Find (${keysOf('find')})`}
      aria-expanded=${tools.findOpen}
      ?disabled=${!tools.ready}
      @click=${() => tools.toggleFind()}
    >
      ${searchIcon()}
    </button>
    <button class="icon ghost" aria-label="Text size" title="Text size" aria-expanded=${tools.sizeOpen} @click=${() => tools.toggleSize()}>
      ${textSizeIcon()}
    </button></span>`;
}

/** A Claude's two views of one session: its terminal and its timeline. */
export function viewSwitch(shown: TabViewMode, switchTo: (view: TabViewMode) => void) {
  const option = (view: TabViewMode, text: string, icon: unknown) =>
    html`<button type="button" aria-pressed=${shown === view} title=${text} @click=${() => switchTo(view)}>
      ${icon}<span class="word">${text}</span>
    </button>`;
  return html`<div class="switch" role="group" aria-label="Show">
    ${option('terminal', 'Terminal', terminalIcon())} ${option('timeline', 'Timeline', timelineIcon())}
  </div>`;
}
