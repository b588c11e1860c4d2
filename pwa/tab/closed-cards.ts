import { html, nothing } from 'lit';
import { CloseCode } from '../../protocol/close-codes.js';
import { router } from '../core/router.js';
import type { TabViewMode } from '../core/router.js';
import { endedText } from './closed-text.js';
import { closePaneEvent } from './tab-events.js';

/** Where a card's way out leads: the list, or (a pane of the split beside others) closing the pane. */
export interface CardExit {
  /** The screen shows a Claude started outside pocketmux, not a tab. */
  readonly outside: boolean;
  /** A pane with others beside it: its way out closes it rather than leading to the list. */
  readonly closesPane: boolean;
  /** The screen that dispatches the close request. */
  readonly screen: EventTarget;
}

function exitButton(exit: CardExit, primary: boolean) {
  return exit.closesPane
    ? html`<button class=${primary ? 'primary' : ''} @click=${() => exit.screen.dispatchEvent(closePaneEvent())}>Close this pane</button>`
    : html`<button class=${primary ? 'primary' : ''} @click=${() => router.toList()}>Back to sessions</button>`;
}

/** The agent has no tab (or Claude session) by this address: nothing to show but the way out. */
export function missingCard(exit: CardExit) {
  return html`<div class="stage no-terminal">
    <div class="card" role="alert">
      <h2>${exit.outside ? 'No such Claude session' : 'No such tab'}</h2>
      <p>${endedText(CloseCode.TabNotFound, exit.outside)}</p>
      ${exitButton(exit, true)}
    </div>
  </div>`;
}

/** The terminal closed for good: why, and the way on (a reconnect, when only the connection was cut). */
export function endedCard(code: number, exit: CardExit) {
  const stillRunning = code === CloseCode.ConnectionLimit || code === CloseCode.DeviceRevoked;
  return html`<div class="overlay">
    <div class="card" role="alert">
      <h2>${stillRunning ? 'Terminal closed' : 'Session ended'}</h2>
      <p>${endedText(code, exit.outside)}</p>
      ${code === CloseCode.ConnectionLimit ? html`<button class="primary" @click=${() => location.reload()}>Reconnect</button>` : nothing}
      ${exitButton(exit, code !== CloseCode.ConnectionLimit)}
    </div>
  </div>`;
}

/** The chunk of the terminal or the timeline did not load: most often the app was updated under it. */
export function loadErrorCard(what: TabViewMode, message: string) {
  return html`<div class="overlay">
    <div class="card" role="alert">
      <h2>Could not load the ${what}</h2>
      <p>${message}</p>
      <p>pocketmux may have been updated; reloading fetches the new version.</p>
      <button class="primary" @click=${() => location.reload()}>Reload</button>
    </div>
  </div>`;
}
