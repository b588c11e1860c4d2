import { html, type ReactiveController, type ReactiveControllerHost } from 'lit';
import { defaultFontSize, FONT_SIZE_MAX, FONT_SIZE_MIN, type FontSizeStep, loadFontSize, saveFontSize, stepFontSize } from '../terminal/font-size.js';
import { minusIcon, plusIcon } from '../terminal/terminal-icons.js';
import type { TerminalSession } from '../terminal/terminal-session.js';
import { keysOf } from './shortcut-keys-text.js';

/** What the text size asks of the tab screen that holds it. */
export interface TextSizeHost extends ReactiveControllerHost {
  readonly terminal: TerminalSession | null;
  /** A phone and a desktop keep sizes of their own, with defaults of their own. */
  readonly touch: boolean;
}

/** The terminal's text size on this device (font-size.ts), and the panel that changes it. */
export class TextSizeController implements ReactiveController {
  fontSize: number;
  open = false;

  constructor(private readonly host: TextSizeHost) {
    host.addController(this);
    this.fontSize = loadFontSize(host.touch);
  }

  hostConnected(): void {}

  setOpen(open: boolean): void {
    this.open = open;
    this.host.requestUpdate();
  }

  /** A new text size: kept on this device, and the terminal refits (telling tmux its new size). */
  change(step: FontSizeStep): void {
    this.fontSize = stepFontSize(this.fontSize, step, defaultFontSize(this.host.touch));
    saveFontSize(this.fontSize, this.host.touch);
    this.host.terminal?.setFontSize(this.fontSize);
    this.host.requestUpdate();
  }

  renderPanel() {
    return html`<div class="size-panel" role="group" aria-label="Text size" @keydown=${(e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      this.setOpen(false);
      this.host.terminal?.focus();
    }}>
      <button
        class="icon"
        aria-label="Smaller text"
        title=${`Smaller text (${keysOf('font-smaller')})`}
        ?disabled=${this.fontSize <= FONT_SIZE_MIN}
        @click=${() => this.change('smaller')}
      >
        ${minusIcon()}
      </button>
      <output aria-live="polite">${this.fontSize} px</output>
      <button
        class="icon"
        aria-label="Bigger text"
        title=${`Bigger text (${keysOf('font-bigger')})`}
        ?disabled=${this.fontSize >= FONT_SIZE_MAX}
        @click=${() => this.change('bigger')}
      >
        ${plusIcon()}
      </button>
      <button title=${`Default size (${keysOf('font-reset')})`} @click=${() => this.change('reset')}>Reset</button>
    </div>`;
  }
}
