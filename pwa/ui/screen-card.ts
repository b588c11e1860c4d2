import { css } from 'lit';

/** A screen with one centred card: pairing, or the agent out of reach. */
export const screenCard = css`
  :host {
    display: grid;
    /* A track no wider than the screen, whatever an input's own preferred width. */
    grid-template-columns: minmax(0, 1fr);
    place-items: center;
    min-height: 100dvh;
    padding: calc(24px + var(--pm-safe-top)) calc(20px + var(--pm-safe-right)) calc(24px + var(--pm-safe-bottom))
      calc(20px + var(--pm-safe-left));
  }
  .card {
    width: 100%;
    max-width: 420px;
    display: flex;
    flex-direction: column;
    gap: 16px;
  }
  .logo {
    width: 56px;
    height: 56px;
  }
  h1 {
    margin: 0;
    font-size: 24px;
    letter-spacing: -0.01em;
  }
  p {
    margin: 0;
    color: var(--pm-muted);
  }
  code {
    font-family: var(--pm-mono);
    color: var(--pm-text);
    background: var(--pm-surface-2);
    padding: 1px 6px;
    border-radius: 6px;
    font-size: 0.92em;
    white-space: nowrap;
  }
  .problem {
    padding: 12px 14px;
    border-radius: 10px;
    background: var(--pm-danger-bg);
    border: 1px solid var(--pm-danger-border);
    color: var(--pm-danger);
    overflow-wrap: anywhere;
  }
  .problem code {
    background: var(--pm-scrim);
    white-space: normal;
  }
`;
