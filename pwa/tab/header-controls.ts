import { html, svg } from 'lit';
import type { TabViewMode } from '../core/router.js';
import { searchIcon, textSizeIcon } from '../terminal/terminal-icons.js';
import { icon, terminalIcon, timelineIcon } from '../ui/icons.js';
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

/** A file with a line added: what a session changed. Here, not with the shared icons, which the first screen carries. */
const changesIcon = () => icon(svg`<path d="M6 3h8l4 4v14H6z"/><path d="M12 9v6M9 12h6"/><path d="M9 18h6"/>`, 18);

/** A Claude's views of one session: its terminal, its timeline, and what it changed. */
export function viewSwitch(shown: TabViewMode, switchTo: (view: TabViewMode) => void) {
  const option = (view: TabViewMode, text: string, icon: unknown) =>
    html`<button type="button" class=${view === 'changes' ? 'roomy' : ''} aria-pressed=${shown === view} title=${text} @click=${() => switchTo(view)}>
      ${icon}<span class="word">${text}</span>
    </button>`;
  return html`<div class="switch" role="group" aria-label="Show">
    ${option('terminal', 'Terminal', terminalIcon())} ${option('timeline', 'Timeline', timelineIcon())} ${option('changes', 'Changes', changesIcon())}
  </div>`;
}
