import { css } from 'lit';

/** The composer's look: the field and its buttons, what Claude is doing, the queued line, the menus. */
export const composerStyles = css`
    *,
    *::before,
    *::after {
      box-sizing: border-box;
    }
    :host {
      display: block;
      position: relative;
      flex: none;
      background: var(--pm-surface);
      border-top: 1px solid var(--pm-border);
      padding: 8px calc(8px + var(--pm-safe-right)) calc(8px + var(--pm-safe-bottom)) calc(8px + var(--pm-safe-left));
    }
    .inner {
      max-width: 820px;
      margin: 0 auto;
      display: flex;
      flex-direction: column;
      gap: 6px;
    }
    .row {
      display: flex;
      align-items: flex-end;
      gap: 6px;
    }
    textarea {
      flex: 1 1 auto;
      min-width: 0;
      min-height: var(--pm-tap);
      max-height: min(40vh, 320px);
      resize: none;
      font: inherit;
      font-size: 16px;
      line-height: 1.4;
      color: inherit;
      padding: 10px 12px;
      border-radius: 12px;
      border: 1px solid var(--pm-field-border, var(--pm-border));
      background: var(--pm-bg);
      overflow-y: auto;
      display: block;
    }
    textarea::placeholder {
      color: var(--pm-muted);
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    textarea:focus-visible {
      outline: 2px solid var(--pm-accent);
      outline-offset: 1px;
    }
    .blocked {
      flex: 1 1 auto;
      min-height: var(--pm-tap);
      display: flex;
      align-items: center;
      padding: 8px 12px;
      border-radius: 12px;
      border: 1px dashed var(--pm-border);
      color: var(--pm-muted);
      font-size: 14px;
      line-height: 1.35;
    }
    button.icon {
      flex: none;
      border-radius: 12px;
    }
    button.send {
      border-radius: 50%;
    }
    .line {
      display: flex;
      align-items: center;
      gap: 8px;
      min-height: var(--pm-tap);
      padding: 0 0 0 12px;
      border-radius: 12px;
      background: var(--pm-surface-2);
      border: 1px solid var(--pm-border);
      font-size: 14px;
    }
    .line .text {
      flex: 1 1 auto;
      min-width: 0;
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    .line .label {
      flex: none;
      color: var(--pm-muted);
      font-weight: 600;
    }
    .line button {
      flex: none;
      border: none;
      background: transparent;
    }
    .line.queued {
      border-color: color-mix(in srgb, var(--pm-busy) 45%, var(--pm-border));
    }
    .line.queued .label {
      color: var(--pm-busy);
    }
    progress {
      flex: 0 0 72px;
      height: 6px;
      accent-color: var(--pm-accent);
    }
    .note {
      font-size: 14px;
      padding: 0 4px;
      overflow-wrap: anywhere;
    }
    .note.info {
      color: var(--pm-muted);
    }
    .note.error {
      color: var(--pm-danger);
    }
    /* Above the composer, over the conversation's reserved end: appearing moves nothing. */
    .doing,
    .menu {
      position: absolute;
      left: calc(8px + var(--pm-safe-left));
      right: calc(8px + var(--pm-safe-right));
      bottom: calc(100% + 6px);
      max-width: 820px;
      margin: 0 auto;
    }
    .doing {
      display: flex;
      align-items: center;
      gap: 10px;
      min-height: 48px;
      padding: 1px 1px 1px 12px;
      border-radius: 14px;
      background: var(--pm-surface-2);
      border: 1px solid color-mix(in srgb, var(--pm-busy) 40%, var(--pm-border));
      font-size: 14px;
      z-index: 1;
    }
    .doing .what {
      flex: 1 1 auto;
      min-width: 0;
      display: flex;
      flex-direction: column;
      line-height: 1.25;
    }
    .doing .now {
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
      font-weight: 600;
    }
    .doing .now.tool {
      font-family: var(--pm-mono);
      font-size: 13px;
    }
    /*
     * Time, tokens, context and cost take more than a phone's line once the counts grow:
     * they wrap between parts, never inside one. Each part's dot hangs in the gap before it,
     * so the one starting a line falls outside the box and is clipped away.
     */
    .doing .meta {
      display: flex;
      flex-wrap: wrap;
      column-gap: 1.1em;
      overflow: hidden;
      color: var(--pm-muted);
      font-size: 12px;
      font-variant-numeric: tabular-nums;
    }
    .doing .meta > span {
      white-space: nowrap;
    }
    .doing .meta > span::before {
      content: '·';
      display: inline-block;
      width: 1.1em;
      margin-left: -1.1em;
      text-align: center;
    }
    .spinner {
      width: 18px;
      height: 18px;
      border-radius: 50%;
      border: 2px solid currentColor;
      border-right-color: transparent;
      animation: spin 0.8s linear infinite;
    }
    .spin {
      flex: none;
      width: 16px;
      height: 16px;
      border-radius: 50%;
      border: 2px solid color-mix(in srgb, var(--pm-busy) 28%, transparent);
      border-top-color: var(--pm-busy);
      animation: spin 0.9s linear infinite;
    }
    @keyframes spin {
      to {
        transform: rotate(1turn);
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .spin,
      .spinner {
        animation: none;
      }
    }
    button.stop {
      flex: none;
      border-radius: 12px;
      background: var(--pm-danger-bg);
      border-color: color-mix(in srgb, var(--pm-danger) 35%, transparent);
      color: var(--pm-danger);
      font-weight: 600;
    }
    .menu {
      max-height: min(50vh, 340px);
      overflow-y: auto;
      overscroll-behavior: contain;
      border-radius: 14px;
      background: var(--pm-surface);
      border: 1px solid var(--pm-border);
      z-index: 2;
    }
    .menu-head {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: 8px;
      padding: 0 0 0 12px;
      color: var(--pm-muted);
      font-size: 13px;
      border-bottom: 1px solid var(--pm-border);
    }
    .menu-head button {
      border: none;
      background: transparent;
    }
    .menu ul {
      list-style: none;
      margin: 0;
      padding: 4px;
    }
    .menu li[role='option'] {
      display: grid;
      grid-template-columns: 1fr auto;
      column-gap: 10px;
      align-items: baseline;
      min-height: var(--pm-tap);
      padding: 7px 10px;
      border-radius: 10px;
      cursor: pointer;
    }
    .menu li[aria-selected='true'] {
      background: var(--pm-surface-3);
    }
    @media (hover: hover) {
      .menu li[role='option']:hover {
        background: var(--pm-surface-2);
      }
      .menu li[aria-selected='true']:hover {
        background: var(--pm-surface-3);
      }
    }
    .cmd-name {
      font-family: var(--pm-mono);
      font-size: 14px;
      overflow-wrap: anywhere;
    }
    .cmd-source {
      font-size: 11px;
      color: var(--pm-muted);
      border: 1px solid var(--pm-border);
      border-radius: 999px;
      padding: 1px 7px;
      white-space: nowrap;
    }
    .cmd-desc {
      grid-column: 1 / -1;
      font-size: 13px;
      color: var(--pm-muted);
      overflow: hidden;
      text-overflow: ellipsis;
      white-space: nowrap;
    }
    .menu-note {
      padding: 12px;
      color: var(--pm-muted);
      font-size: 14px;
    }
    .menu-note.error {
      color: var(--pm-danger);
    }
    .menu .recall {
      display: block;
      width: 100%;
      text-align: left;
      white-space: normal;
      border: none;
      background: transparent;
      padding: 8px 10px;
      font-size: 14px;
      line-height: 1.35;
    }
    .recall span {
      display: -webkit-box;
      -webkit-box-orient: vertical;
      -webkit-line-clamp: 2;
      line-clamp: 2;
      overflow: hidden;
      overflow-wrap: anywhere;
    }
  `;
