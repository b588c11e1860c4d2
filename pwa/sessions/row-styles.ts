import { css } from 'lit';

/**
 * A session's row in the list (a tab, or a Claude started outside pocketmux): a large button
 * with a glyph carrying the status dot, the name over the state and path, and a chevron; an
 * icon button may stand beside it. What waits on the person is tinted.
 */
export const rowStyles = css`
  :host {
    display: block;
  }
  .row {
    display: flex;
    align-items: stretch;
    gap: 4px;
  }
  .open {
    flex: 1 1 auto;
    min-width: 0;
    justify-content: flex-start;
    text-align: left;
    min-height: 56px;
    padding: 6px 10px;
    gap: 12px;
    border-color: transparent;
    background: transparent;
  }
  .open:active {
    background: var(--pm-surface-2);
  }
  /* On screen in the desktop split: a bar in the accent colour along the row's edge. */
  :host([shown]) .open {
    background: var(--pm-surface-2);
    box-shadow: inset 3px 0 0 var(--pm-accent);
  }
  @media (hover: hover) {
    .open:hover {
      background: var(--pm-surface-2);
    }
  }
  .glyph {
    position: relative;
    flex: none;
    display: grid;
    place-items: center;
    width: 34px;
    height: 34px;
    border-radius: 8px;
    background: var(--pm-surface-2);
    color: var(--pm-accent);
  }
  /* The status sits on the glyph's corner, ringed in the row's colour to stand clear of it. */
  .glyph pm-status-dot {
    position: absolute;
    right: -4px;
    bottom: -4px;
    --pm-dot-size: 14px;
    padding: 2px;
    border-radius: 50%;
    background: var(--pm-surface);
    box-sizing: content-box;
  }
  .text {
    display: flex;
    flex-direction: column;
    min-width: 0;
    flex: 1 1 auto;
  }
  /* The name, and beside it the permission mode when it is not manual: the name gives way. */
  .primary-line {
    display: flex;
    align-items: center;
    gap: 8px;
    min-width: 0;
  }
  .primary-text {
    min-width: 0;
    font-weight: 600;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .secondary-text {
    display: flex;
    min-width: 0;
    gap: 0.5ch;
    color: var(--pm-muted);
    font-size: 14px;
    font-family: var(--pm-mono);
    white-space: nowrap;
  }
  /*
   * The state is what the row is for: the path gives way first, all of it if need be. The
   * state does not shrink with it (even a fraction of a pixel would cut its last letter);
   * only a state too long for the row on its own is cut. A fixed share kept for the path cut
   * "Ready for review" short beside a path of one character in a desktop's sidebar.
   */
  .secondary-text .state {
    flex: none;
    max-width: 100%;
    min-width: 0;
    font-family: var(--pm-font);
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .secondary-text:has(.state) {
    overflow: hidden;
  }
  .state.needs-input {
    color: var(--pm-attention);
    font-weight: 600;
  }
  .state.ready-for-review {
    color: var(--pm-review);
    font-weight: 600;
  }
  .state.busy {
    color: var(--pm-busy);
  }
  /* What waits on the person is tinted, not moved: rows never jump under a finger. */
  .row.needs-input .open {
    background: color-mix(in srgb, var(--pm-attention) 8%, transparent);
    box-shadow: inset 3px 0 0 var(--pm-attention);
  }
  .row.ready-for-review .open {
    background: color-mix(in srgb, var(--pm-review) 7%, transparent);
    box-shadow: inset 3px 0 0 var(--pm-review);
  }
  /* Paths lose their start, not their end: the last directory says the most. */
  .secondary-text .path {
    flex: 0 1 auto;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    direction: rtl;
    text-align: left;
  }
  .chevron {
    flex: none;
    color: var(--pm-muted);
  }
  .more {
    align-self: center;
    color: var(--pm-muted);
  }
`;
