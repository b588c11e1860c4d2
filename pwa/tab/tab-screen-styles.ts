import { css } from 'lit';

/** The tab screen's own look: its header and tools, the stage, the cards over it, and the pane of the split. */
export const tabScreenStyles = css`
    .tools {
      display: contents;
    }
    /* Measured on the view itself, not the window: in the desktop split a pane is narrow on a wide screen. */
    @container (max-width: 600px) {
      header.crowded .tools {
        display: none;
      }
    }
    /* A quarter of a laptop's split would cut even a shell's name to a letter: the tools give way there too. */
    @container (max-width: 280px) {
      .tools {
        display: none;
      }
    }

    :host {
      position: fixed;
      top: 0;
      left: 0;
      right: 0;
      height: var(--pm-viewport-height, 100dvh);
      display: flex;
      flex-direction: column;
      background: var(--pm-bg);
      z-index: 2;
      container-type: inline-size;
    }
    /* A pane of the desktop split: as large as the workbench gives it. */
    :host([pane]) {
      position: relative;
      top: auto;
      left: auto;
      right: auto;
      height: auto;
      min-width: 0;
      min-height: 0;
      z-index: auto;
    }
    :host([pane]) header {
      padding: 0 6px 0 10px;
    }
    /* The pane with the keyboard: a line in the accent colour under its header. */
    :host([pane][focused]) header {
      box-shadow: inset 0 -2px 0 var(--pm-accent);
    }
    header {
      flex: none;
      display: flex;
      align-items: center;
      gap: 4px;
      min-height: 48px;
      padding: var(--pm-safe-top) calc(8px + var(--pm-safe-right)) 0 calc(2px + var(--pm-safe-left));
      background: var(--pm-surface);
      border-bottom: 1px solid var(--pm-border);
    }
    .title {
      flex: 1 1 auto;
      min-width: 0;
      display: flex;
      flex-direction: column;
      justify-content: center;
      line-height: 1.2;
    }
    .name {
      display: flex;
      align-items: center;
      gap: 7px;
      min-width: 0;
    }
    .primary-text {
      font-weight: 650;
      font-size: 15px;
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    /* Paths lose their start, not their end: the last directory says the most. */
    .secondary-text {
      color: var(--pm-muted);
      font-family: var(--pm-mono);
      font-size: 12px;
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
      direction: rtl;
      text-align: left;
    }
    /*
     * Beside a state the name keeps its room, up to most of the line: a phone's header is
     * narrow, and a short name ("Claude") cut to its first letter says nothing. The state
     * gives way with an ellipsis; the dot before the name still shows it.
     */
    .primary-text:not(:last-child) {
      flex-shrink: 0;
      max-width: 60%;
    }
    .state-text {
      flex: 0 1 auto;
      min-width: 0;
      overflow: hidden;
      text-overflow: ellipsis;
      font-size: 12px;
      font-weight: 600;
      white-space: nowrap;
      color: var(--pm-muted);
    }
    .state-text.needs-input {
      color: var(--pm-attention);
    }
    .state-text.ready-for-review {
      color: var(--pm-review);
    }
    .state-text.busy {
      color: var(--pm-busy);
    }
    .switch {
      flex: none;
      display: inline-flex;
      padding: 2px;
      gap: 2px;
      border-radius: 12px;
      background: var(--pm-bg);
      border: 1px solid var(--pm-border);
    }
    .switch button {
      border: none;
      background: transparent;
      color: var(--pm-muted);
      min-height: 40px;
      padding: 0 12px;
    }
    .switch button[aria-pressed='true'] {
      background: var(--pm-surface-3);
      color: var(--pm-text);
    }
    /* On a phone (or in a narrow pane) the choices keep their icons and lose their words (still their names). */
    @container (max-width: 560px) {
      .switch button {
        padding: 0;
        width: 44px;
      }
      .switch .word {
        position: absolute;
        width: 1px;
        height: 1px;
        overflow: hidden;
        clip-path: inset(50%);
      }
    }
    /*
     * On a phone's width the tab's name needs the room: Changes shows in the switch only while
     * it is the view (the review card and the timeline lead to it).
     */
    @container (max-width: 420px) {
      .switch button.roomy:not([aria-pressed='true']) {
        display: none;
      }
    }
    /* The tab's view, and on a wide screen what Claude asks beside it. */
    .body {
      flex: 1 1 auto;
      min-height: 0;
      display: flex;
    }
    .main {
      flex: 1 1 auto;
      min-width: 0;
      display: flex;
      flex-direction: column;
    }
    .stage {
      position: relative;
      flex: 1 1 auto;
      min-height: 0;
      display: flex;
    }
    .banner {
      position: absolute;
      top: 8px;
      left: 50%;
      transform: translateX(-50%);
      display: flex;
      align-items: center;
      gap: 10px;
      padding: 3px 3px 3px 14px;
      max-width: calc(100% - 16px);
      border-radius: 12px;
      background: var(--pm-warn-bg);
      border: 1px solid var(--pm-warn-border);
      color: var(--pm-warn);
      font-size: 14px;
      white-space: nowrap;
      box-shadow: 0 6px 20px var(--pm-shadow);
    }
    .banner button {
      font-size: 14px;
      border-color: var(--pm-warn-border);
      background: transparent;
      color: var(--pm-text);
    }
    .overlay {
      position: absolute;
      inset: 0;
      display: grid;
      place-items: center;
      padding: 24px;
      background: color-mix(in srgb, var(--pm-bg) 82%, transparent);
      backdrop-filter: blur(2px);
    }
    .card {
      max-width: 360px;
      display: flex;
      flex-direction: column;
      gap: 12px;
      padding: 20px;
      border-radius: var(--pm-radius);
      background: var(--pm-surface);
      border: 1px solid var(--pm-border);
      text-align: center;
    }
    .card h2 {
      margin: 0;
      font-size: 19px;
    }
    .card p {
      margin: 0;
      color: var(--pm-muted);
    }
    .no-terminal {
      display: grid;
      place-items: center;
      padding: 24px;
    }
    .no-terminal .card {
      align-items: center;
    }
    .no-terminal .glyph {
      display: grid;
      place-items: center;
      width: 44px;
      height: 44px;
      border-radius: 12px;
      background: var(--pm-surface-2);
      color: var(--pm-muted);
    }
    .no-terminal .card p {
      color: var(--pm-text);
      line-height: 1.45;
    }
    .adopt[aria-expanded='true'] {
      background: var(--pm-surface-2);
    }
    .adopt-panel {
      flex: none;
      display: flex;
      flex-direction: column;
      gap: 8px;
      padding: 8px calc(8px + var(--pm-safe-right)) 8px calc(8px + var(--pm-safe-left));
      background: var(--pm-surface);
      border-bottom: 1px solid var(--pm-border);
    }
    .adopt-panel .error {
      padding: 0 4px;
    }
    /* xterm's layers (the WebGL renderer's canvases, its helpers) stack among themselves, under
       what this view lays over the terminal: find, the text size, banners, the ended card. */
    ::slotted(.pm-term-host) {
      isolation: isolate;
    }
    /* The text size, under its header button, over the terminal's top right corner. */
    .size-panel {
      position: absolute;
      top: 8px;
      right: calc(16px + var(--pm-safe-right));
      z-index: 1;
      display: flex;
      align-items: center;
      gap: 4px;
      padding: 4px;
      border-radius: var(--pm-radius);
      background: var(--pm-surface);
      border: 1px solid var(--pm-border);
      box-shadow: 0 6px 20px var(--pm-shadow);
    }
    .size-panel output {
      min-width: 52px;
      text-align: center;
      font-size: 14px;
      font-variant-numeric: tabular-nums;
    }
    .size-panel button {
      min-height: 40px;
      min-width: 40px;
      padding: 0 10px;
    }
    .size-panel button.icon {
      padding: 0;
    }
    /* A finger needs 44 px; a mouse does with the smaller switch and panel. */
    @media (pointer: coarse) {
      .switch button,
      .size-panel button {
        min-height: var(--pm-tap);
      }
      .size-panel button {
        min-width: var(--pm-tap);
      }
    }
    .loading {
      position: absolute;
      inset: 0;
      display: grid;
      place-items: center;
      color: var(--pm-muted);
    }
  `;
