import { css } from 'lit';

/** A section of the settings page: a block under a small, muted, upper-case heading, its card below, its words in `.texts`. */
export const settingsSection = css`
  :host {
    display: block;
  }
  h2 {
    margin: 8px 0 12px;
    font-size: 13px;
    font-weight: 600;
    text-transform: uppercase;
    letter-spacing: 0.06em;
    color: var(--pm-muted);
  }
  .card {
    display: flex;
    padding: 16px;
    background: var(--pm-surface);
    border: 1px solid var(--pm-border);
    border-radius: var(--pm-radius);
  }
  /* A card's words: a column that takes the room its icon or switch leaves. */
  .texts {
    flex: 1 1 auto;
    min-width: 0;
    display: flex;
    flex-direction: column;
    gap: 4px;
  }
`;

/** The square icon at the start of a settings card, in the accent colour when the thing is on. */
export const settingsGlyph = css`
  .glyph {
    flex: none;
    display: grid;
    place-items: center;
    width: 36px;
    height: 36px;
    border-radius: 10px;
    background: var(--pm-surface-2);
    color: var(--pm-muted);
  }
  .on .glyph {
    background: color-mix(in srgb, var(--pm-accent) 14%, transparent);
    color: var(--pm-accent);
  }
`;

/** A choice of a settings card: its words, and a switch (a checkbox with role="switch") at the end. */
export const settingsChoice = css`
  label.choice {
    display: flex;
    align-items: center;
    gap: 14px;
    min-height: 60px;
    padding: 10px 16px;
    cursor: pointer;
  }
  label.choice + label.choice {
    border-top: 1px solid var(--pm-surface-2);
  }
  .choice .label {
    font-weight: 600;
  }
  .choice .detail {
    font-size: 14px;
    color: var(--pm-muted);
  }
  /* The switch's box is a finger's height; its track (::after) and knob (::before) are drawn inside. */
  input[role='switch'] {
    appearance: none;
    flex: none;
    position: relative;
    width: 48px;
    height: 44px;
    min-height: 0;
    margin: 0;
    padding: 0;
    border: 0;
    background: transparent;
    cursor: pointer;
  }
  input[role='switch']::after {
    content: '';
    position: absolute;
    top: 8px;
    left: 0;
    width: 48px;
    height: 28px;
    box-sizing: border-box;
    border-radius: 999px;
    background: var(--pm-surface-3);
    border: 1px solid var(--pm-field-border);
    transition: background-color 0.15s;
  }
  input[role='switch']::before {
    content: '';
    position: absolute;
    z-index: 1;
    top: 12px;
    left: 4px;
    width: 20px;
    height: 20px;
    border-radius: 50%;
    background: var(--pm-muted);
    transition: transform 0.15s, background-color 0.15s;
  }
  input[role='switch']:checked::after {
    background: var(--pm-accent);
    border-color: var(--pm-accent);
  }
  input[role='switch']:checked::before {
    transform: translateX(20px);
    background: var(--pm-accent-ink);
  }
  input[role='switch']:focus-visible {
    outline: none;
  }
  input[role='switch']:focus-visible::after {
    outline: 2px solid var(--pm-accent);
    outline-offset: 2px;
  }
  input[role='switch']:disabled {
    opacity: 0.55;
  }
  @media (prefers-reduced-motion: reduce) {
    input[role='switch']::after,
    input[role='switch']::before {
      transition: none;
    }
  }
`;
