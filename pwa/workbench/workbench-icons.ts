import { svg } from 'lit';
import { icon } from '../ui/icons.js';

/** Two panes side by side. */
export const splitRowIcon = () => icon(svg`<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M12 4v16"/>`, 18);
/** Two panes stacked. */
export const splitColumnIcon = () => icon(svg`<rect x="3" y="4" width="18" height="16" rx="2"/><path d="M3 12h18"/>`, 18);
/** Keys: the help sheet's shortcuts. */
export const keyboardIcon = () =>
  icon(svg`<rect x="2.5" y="6" width="19" height="12" rx="2"/><path d="M6.5 10h.01M10 10h.01M14 10h.01M17.5 10h.01M7.5 14h9"/>`, 20);
