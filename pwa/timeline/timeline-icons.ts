/** The composer's icons, in the app's style (pwa/ui/icons.ts), kept in the timeline's chunk. */
import { svg, type SVGTemplateResult } from 'lit';

function icon(body: SVGTemplateResult, size = 20) {
  return svg`<svg width=${size} height=${size} viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`;
}

export const paperclipIcon = () =>
  icon(svg`<path d="M20.5 11.5l-8.1 8.1a5 5 0 0 1-7.1-7.1l8.5-8.5a3.4 3.4 0 0 1 4.8 4.8l-8.5 8.5a1.7 1.7 0 0 1-2.4-2.4l7.8-7.8"/>`);
export const stopIcon = () => icon(svg`<rect x="6.5" y="6.5" width="11" height="11" rx="2" fill="currentColor"/>`, 18);
/** A clock with an arrow going back round it: what was sent before. */
export const historyIcon = () => icon(svg`<path d="M3.5 12a8.5 8.5 0 1 0 2.5-6"/><path d="M3 4v4.5h4.5"/><path d="M12 8v4.5l3 2"/>`);
export const sendArrowIcon = () => icon(svg`<path d="M12 19V5M6 11l6-6 6 6"/>`);
export const queueIcon = () => icon(svg`<path d="M4 7h12M4 12h12M4 17h7"/><path d="M17 15l3 3-3 3"/>`);
export const closeSmallIcon = () => icon(svg`<path d="M7 7l10 10M17 7L7 17"/>`, 18);
