import { css } from 'lit';

/** Buttons, inputs and small text shared by the elements; colours come from styles.css. */
export const controls = css`
  :host {
    font-family: var(--pm-font);
    color: var(--pm-text);
  }
  button {
    font: inherit;
    color: inherit;
    min-height: var(--pm-tap);
    min-width: var(--pm-tap);
    padding: 0 14px;
    border-radius: 10px;
    border: 1px solid var(--pm-border);
    background: var(--pm-surface-2);
    cursor: pointer;
    touch-action: manipulation;
    display: inline-flex;
    align-items: center;
    justify-content: center;
    gap: 6px;
    white-space: nowrap;
  }
  button:active {
    background: var(--pm-surface-3);
  }
  /* Touch screens keep :hover on the last tapped element; only real pointers get hover. */
  @media (hover: hover) {
    button:hover {
      background: var(--pm-surface-3);
    }
    button.primary:hover {
      filter: brightness(1.08);
      background: var(--pm-accent);
    }
    button.ghost:hover {
      background: var(--pm-surface-2);
    }
  }
  button:focus-visible,
  input:focus-visible {
    outline: 2px solid var(--pm-accent);
    outline-offset: 1px;
  }
  button:disabled {
    opacity: 0.55;
    cursor: default;
  }
  button.primary {
    background: var(--pm-accent);
    border-color: var(--pm-accent);
    color: var(--pm-accent-ink);
    font-weight: 600;
  }
  button.danger {
    background: var(--pm-danger-bg);
    border-color: var(--pm-danger-border);
    color: var(--pm-danger);
    font-weight: 600;
  }
  button.ghost {
    background: transparent;
    border-color: transparent;
  }
  button.icon {
    padding: 0;
    width: var(--pm-tap);
  }
  input {
    font: inherit;
    color: inherit;
    min-height: var(--pm-tap);
    padding: 0 12px;
    border-radius: 10px;
    border: 1px solid var(--pm-field-border);
    background: var(--pm-bg);
    min-width: 0;
  }
  input::placeholder {
    color: var(--pm-muted);
  }
  .muted {
    color: var(--pm-muted);
  }
  .error {
    color: var(--pm-danger);
    font-size: 14px;
    overflow-wrap: anywhere;
  }
  .visually-hidden {
    position: absolute;
    width: 1px;
    height: 1px;
    overflow: hidden;
    clip-path: inset(50%);
    white-space: nowrap;
  }
`;

/** A full page under a sticky, blurred top bar with its title, its content in one centred column. */
export const pageBar = css`
  :host {
    display: block;
    min-height: 100dvh;
  }
  .bar {
    position: sticky;
    top: 0;
    z-index: 1;
    background: color-mix(in srgb, var(--pm-bg) 88%, transparent);
    backdrop-filter: blur(8px);
    border-bottom: 1px solid var(--pm-surface-2);
    padding-top: var(--pm-safe-top);
  }
  .bar-inner,
  main {
    max-width: 760px;
    margin: 0 auto;
    padding-left: calc(16px + var(--pm-safe-left));
    padding-right: calc(16px + var(--pm-safe-right));
  }
  .bar-inner {
    display: flex;
    align-items: center;
    min-height: 56px;
  }
  h1 {
    margin: 0;
    font-size: 20px;
    font-weight: 700;
    letter-spacing: -0.01em;
  }
  main {
    display: flex;
    flex-direction: column;
    gap: 16px;
    padding-top: 16px;
    padding-bottom: calc(24px + var(--pm-safe-bottom));
  }
`;

/** A form field: its label above the control, in the muted colour. */
export const fieldLabel = css`
  label {
    display: flex;
    flex-direction: column;
    gap: 6px;
    font-size: 14px;
    color: var(--pm-muted);
  }
`;

/**
 * A small ring turning in the text colour: an answer on its way (a button's decision, a retry).
 * Slower, not stopped, where motion is reduced: it still says that something is happening.
 */
export const spinner = css`
  .spinner {
    flex: none;
    width: var(--pm-spinner-size, 16px);
    height: var(--pm-spinner-size, 16px);
    border-radius: 50%;
    border: 2px solid currentColor;
    border-right-color: transparent;
    animation: spin 0.8s linear infinite;
  }
  @keyframes spin {
    to {
      transform: rotate(1turn);
    }
  }
  @media (prefers-reduced-motion: reduce) {
    .spinner {
      animation-duration: 2.4s;
    }
  }
`;

export type ChipTone = 'quiet' | 'accent' | 'review' | 'busy' | 'danger';

/**
 * A short word in a rounded frame, tinted in one of the theme's colours (`ChipTone`): a
 * setting that stands beside a name without being taken for it.
 */
export const chip = css`
  .chip {
    --pm-chip: var(--pm-muted);
    flex: none;
    display: inline-flex;
    align-items: center;
    padding: 1px 7px;
    border-radius: 999px;
    border: 1px solid color-mix(in srgb, var(--pm-chip) 45%, transparent);
    background: color-mix(in srgb, var(--pm-chip) 12%, transparent);
    /* Drawn toward the text colour: a chip keeps its contrast on a tinted row or a selected one. */
    color: color-mix(in srgb, var(--pm-chip) 80%, var(--pm-text));
    font-family: var(--pm-font);
    font-size: 12px;
    font-weight: 600;
    line-height: 1.35;
    white-space: nowrap;
  }
  .chip.quiet {
    border-color: var(--pm-border);
    background: transparent;
    font-weight: 500;
  }
  .chip.accent {
    --pm-chip: var(--pm-accent);
  }
  .chip.review {
    --pm-chip: var(--pm-review);
  }
  .chip.busy {
    --pm-chip: var(--pm-busy);
  }
  .chip.danger {
    --pm-chip: var(--pm-danger);
    background: var(--pm-danger-bg);
    border-color: var(--pm-danger-border);
  }
`;
