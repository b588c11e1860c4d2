import { css } from 'lit';

/** A section of the settings page: a block under a small, muted, upper-case heading, its card below. */
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
