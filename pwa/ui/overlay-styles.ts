import { type CSSResult, css } from 'lit';

/*
 * What floats over a view's content. Apart from `styles.ts` so that only the lazy screens that
 * show one load it.
 */

/** A one-line banner at the top of a view (a warning with its button); the view gives it its colours. */
export const floatingBanner = css`
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
    color: var(--pm-warn);
    font-size: 14px;
  }
  .banner button {
    font-size: 14px;
    background: transparent;
  }
`;

/**
 * A small panel over a terminal's top right corner (find, the text size), the element that
 * `selector` picks laid out as a row; its gap is its own.
 */
export function cornerPanel(selector: CSSResult): CSSResult {
  return css`
    ${selector} {
      position: absolute;
      top: 8px;
      right: calc(16px + var(--pm-safe-right));
      z-index: 1;
      display: flex;
      align-items: center;
      padding: 4px;
      border-radius: var(--pm-radius);
      background: var(--pm-surface);
      border: 1px solid var(--pm-border);
      box-shadow: 0 6px 20px var(--pm-shadow);
    }
  `;
}
