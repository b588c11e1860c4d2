import { css } from 'lit';

/**
 * A group of sessions in the list (a workspace, or the Claude sessions started outside
 * pocketmux): a card whose header names it, with its status and how many wait, over its rows.
 */
export const groupCard = css`
  section {
    background: var(--pm-surface);
    border: 1px solid var(--pm-border);
    border-radius: var(--pm-radius);
    overflow: hidden;
  }
  .name {
    display: flex;
    align-items: center;
    gap: 8px;
    min-width: 0;
  }
  h2 {
    margin: 0;
    font-size: 17px;
    font-weight: 650;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .waiting {
    flex: none;
    font-size: 13px;
    font-weight: 600;
    color: var(--pm-review);
  }
  .waiting.needs-input {
    color: var(--pm-attention);
  }
  ul {
    list-style: none;
    margin: 0;
    padding: 4px 6px;
  }
  li + li {
    border-top: 1px solid var(--pm-surface-2);
  }
`;
