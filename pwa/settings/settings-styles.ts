import { css } from 'lit';

/**
 * What the Settings sections that list things (devices, linked machines) look alike in: a
 * section heading, an intro, a note of what just happened, and a list of rows, each a name
 * with what is known of it and its actions.
 */
export const settingsListStyles = css`
  h2 {
    margin: 8px 0 0;
    font-size: 13px;
    font-weight: 600;
    text-transform: uppercase;
    letter-spacing: 0.06em;
    color: var(--pm-muted);
  }
  .intro {
    margin: 0;
    color: var(--pm-muted);
  }
  .note {
    padding: 10px 14px;
    border-radius: 10px;
    background: color-mix(in srgb, var(--pm-accent) 14%, var(--pm-surface));
    border: 1px solid color-mix(in srgb, var(--pm-accent) 40%, transparent);
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 0;
    background: var(--pm-surface);
    border: 1px solid var(--pm-border);
    border-radius: var(--pm-radius);
    overflow: hidden;
  }
  li {
    display: flex;
    flex-direction: column;
    gap: 10px;
    padding: 12px 12px 12px 16px;
  }
  li + li {
    border-top: 1px solid var(--pm-border);
  }
  .row {
    display: flex;
    align-items: center;
    gap: 12px;
  }
  .info {
    flex: 1 1 auto;
    min-width: 0;
    display: flex;
    flex-direction: column;
    gap: 2px;
  }
  .name {
    display: flex;
    align-items: center;
    gap: 8px;
    min-width: 0;
    font-weight: 600;
  }
  .meta {
    font-size: 14px;
    color: var(--pm-muted);
    overflow-wrap: anywhere;
  }
`;
