import { svg, type SVGTemplateResult } from 'lit';

/** An icon in the app's line style: 24-unit paths, drawn in the text colour. */
export function icon(body: SVGTemplateResult, size = 20) {
  return svg`<svg width=${size} height=${size} viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`;
}

export const backIcon = () => icon(svg`<path d="M15 18l-6-6 6-6"/>`, 22);
export const moreIcon = () => icon(svg`<circle cx="5" cy="12" r="1.2"/><circle cx="12" cy="12" r="1.2"/><circle cx="19" cy="12" r="1.2"/>`);
export const plusIcon = () => icon(svg`<path d="M12 5v14M5 12h14"/>`, 18);
export const chevronIcon = () => icon(svg`<path d="M9 6l6 6-6 6"/>`, 18);
export const promptIcon = () => icon(svg`<path d="M5 7l5 5-5 5"/><path d="M13 17h6"/>`, 18);
export const folderIcon = () => icon(svg`<path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z"/>`, 18);
export const sendIcon = () => icon(svg`<path d="M5 12h14M13 6l6 6-6 6"/>`, 20);
export const arrowIcon = (dir: 'up' | 'down' | 'left' | 'right') => {
  const rotate = { up: 0, right: 90, down: 180, left: 270 }[dir];
  return icon(svg`<g transform="rotate(${rotate} 12 12)"><path d="M12 19V5M6 11l6-6 6 6"/></g>`, 18);
};
/** Claude's mark: a four-pointed spark. */
export const sparkIcon = () => icon(svg`<path d="M12 3c.6 4.6 2.4 6.4 7 7-4.6.6-6.4 2.4-7 7-.6-4.6-2.4-6.4-7-7 4.6-.6 6.4-2.4 7-7z"/>`, 18);
export const caretIcon = () => icon(svg`<path d="M6 9l6 6 6-6"/>`, 18);
export const terminalIcon = () => icon(svg`<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M7 9l3 3-3 3"/><path d="M12 15h5"/>`, 18);
export const timelineIcon = () =>
  icon(svg`<path d="M21 12a8 8 0 0 1-11.6 7.1L4 20l1-4.6A8 8 0 1 1 21 12z"/><path d="M9 10h6M9 14h4"/>`, 18);
/** A gear: Settings (devices, notifications, theme, Claude's hooks), as every app draws it. */
export const settingsIcon = () =>
  icon(
    svg`<circle cx="12" cy="12" r="3"/><path d="M19.4 15a1.7 1.7 0 0 0 .3 1.8l.1.1a2 2 0 1 1-2.8 2.8l-.1-.1a1.7 1.7 0 0 0-1.8-.3 1.7 1.7 0 0 0-1 1.5V21a2 2 0 1 1-4 0v-.1a1.7 1.7 0 0 0-1.1-1.5 1.7 1.7 0 0 0-1.8.3l-.1.1a2 2 0 1 1-2.8-2.8l.1-.1a1.7 1.7 0 0 0 .3-1.8 1.7 1.7 0 0 0-1.5-1H3a2 2 0 1 1 0-4h.1a1.7 1.7 0 0 0 1.5-1.1 1.7 1.7 0 0 0-.3-1.8l-.1-.1a2 2 0 1 1 2.8-2.8l.1.1a1.7 1.7 0 0 0 1.8.3H9a1.7 1.7 0 0 0 1-1.5V3a2 2 0 1 1 4 0v.1a1.7 1.7 0 0 0 1 1.5 1.7 1.7 0 0 0 1.8-.3l.1-.1a2 2 0 1 1 2.8 2.8l-.1.1a1.7 1.7 0 0 0-.3 1.8V9a1.7 1.7 0 0 0 1.5 1H21a2 2 0 1 1 0 4h-.1a1.7 1.7 0 0 0-1.5 1z"/>`,
    20,
  );
export const closeIcon = () => icon(svg`<path d="M6 6l12 12M18 6L6 18"/>`, 20);
/** The inbox: what waits for the person. */
export const bellIcon = () => icon(svg`<path d="M6 9a6 6 0 0 1 12 0c0 5 2 6.5 2 6.5H4S6 14 6 9z"/><path d="M10 19a2 2 0 0 0 4 0"/>`, 22);
/** A question from Claude. */
export const questionIcon = () => icon(svg`<circle cx="12" cy="12" r="9"/><path d="M9.5 9.5a2.5 2.5 0 0 1 4.9.7c0 1.7-2.4 2.2-2.4 3.8"/><path d="M12 17h0.01"/>`, 18);
/** A tool asking to run: a shield. */
export const shieldIcon = () => icon(svg`<path d="M12 3l7 3v5c0 4.5-3 8.3-7 10-4-1.7-7-5.5-7-10V6z"/>`, 18);
/** A call auto mode refused: a circle struck through. */
export const blockedIcon = () => icon(svg`<circle cx="12" cy="12" r="9"/><path d="M5.6 5.6l12.8 12.8"/>`, 18);
export const checkIcon = () => icon(svg`<path d="M5 12.5l4.5 4.5L19 7.5"/>`, 20);
/** An arrow coming in through a door: a Claude from elsewhere adopted as a tab here. */
export const adoptIcon = () => icon(svg`<path d="M14 4h4a2 2 0 0 1 2 2v12a2 2 0 0 1-2 2h-4"/><path d="M3 12h12"/><path d="M11 8l4 4-4 4"/>`, 18);
