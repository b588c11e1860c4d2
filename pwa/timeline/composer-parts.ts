import { html, nothing } from 'lit';
import { type DoingNow, doingNowText } from './doing-now.js';
import { closeSmallIcon, stopIcon } from './timeline-icons.js';

/** Over the field while Claude works: what it does now, for how long, and Stop (when it can be typed to). */
export function doingLine(d: DoingNow | null, stop: { shown: boolean; pending: boolean; press(): void }, agent = 'Claude') {
  if (!d) return nothing;
  return html`<div class="doing" role="group" aria-label=${`${agent} is working: ${doingNowText(d)}`}>
    <span class="spin" aria-hidden="true"></span>
    <span class="what" aria-hidden="true">
      <span class=${d.tool ? 'now tool' : 'now'}>${d.what}</span>
      <span class="meta">${[d.elapsed, d.tokens && `↓ ${d.tokens}`, ...d.usage].filter(Boolean).map((part) => html`<span>${part}</span>`)}</span>
    </span>
    ${stop.shown ? html`<button class="stop" aria-label=${`Stop ${agent}`} ?disabled=${stop.pending} @click=${() => stop.press()}>${stopIcon()}Stop</button>` : nothing}
  </div>`;
}

/** The prompts sent from this device, newest first: a touch screen's way to ↑. */
export function historyMenu(sent: readonly string[], recall: (text: string) => void, close: () => void) {
  const entries = sent.slice().reverse();
  return html`<div class="menu" id="history-menu" role="region" aria-label="Sent from this device">
    <div class="menu-head">
      <span>Sent from this device</span>
      <button class="icon" aria-label="Close" @click=${close}>${closeSmallIcon()}</button>
    </div>
    ${entries.length === 0
      ? html`<div class="menu-note">Nothing sent from this device yet.</div>`
      : html`<ul>
          ${entries.map((text) => html`<li><button class="recall" @click=${() => recall(text)}><span>${text}</span></button></li>`)}
        </ul>`}
  </div>`;
}
