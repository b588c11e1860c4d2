import { svg, type SVGTemplateResult } from 'lit';

/** The terminal's own icons, drawn as pwa/ui/icons.ts draws the app's. */
function icon(body: SVGTemplateResult, size = 20) {
  return svg`<svg width=${size} height=${size} viewBox="0 0 24 24" fill="none" stroke="currentColor" stroke-width="2" stroke-linecap="round" stroke-linejoin="round" aria-hidden="true">${body}</svg>`;
}

export const searchIcon = () => icon(svg`<circle cx="11" cy="11" r="6.5"/><path d="M20 20l-4.2-4.2"/>`, 20);
/** A large and a small A: the text size. */
export const textSizeIcon = () => icon(svg`<path d="M3 19l5.5-14L14 19"/><path d="M5.2 14h6.6"/><path d="M15 19l3.5-8.5L22 19"/><path d="M16.3 16h4.4"/>`, 20);
export const pasteIcon = () =>
  icon(svg`<rect x="5" y="4" width="14" height="17" rx="2"/><path d="M9 4V3h6v1"/><path d="M9 2.5h6v3H9z"/><path d="M9 11h6M9 15h4"/>`, 18);
export const upIcon = () => icon(svg`<path d="M6 15l6-6 6 6"/>`, 18);
export const downIcon = () => icon(svg`<path d="M6 9l6 6 6-6"/>`, 18);
export const minusIcon = () => icon(svg`<path d="M5 12h14"/>`, 18);
export const plusIcon = () => icon(svg`<path d="M12 5v14M5 12h14"/>`, 18);
