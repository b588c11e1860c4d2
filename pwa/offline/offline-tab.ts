import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { keyed } from 'lit/directives/keyed.js';
import { isOutsidePlace, placeHasTimeline, placeNames, sessionPlaces } from '../core/inbox-items.js';
import { backIcon } from '../ui/icons.js';
import { router } from '../core/router.js';
import { controls } from '../ui/styles.js';
import '../ui/status-dot.js';
import { describeStatus } from '../core/tab-status.js';
import { readTimeline } from '../core/offline-store.js';
import './offline-bar.js';
import { OFFLINE_LIMITS, type SavedTimeline, type SessionsSnapshot } from '../core/offline-snapshot.js';

/** Said for a Claude session whose conversation this device did not keep. */
export const NOTHING_SAVED = `Nothing saved for this tab. This device keeps the conversations of the last ${OFFLINE_LIMITS.timelines} Claude tabs you opened; this one shows here once pocketmux is back.`;

/**
 * What a tab's screen shows offline, once its saved timeline has been looked for: it, none,
 * or `not-loaded` when the timeline's own chunk could not be fetched (no service worker).
 */
type Saved = { key: string; timeline: SavedTimeline | null | 'not-loaded' } | null;

/**
 * A tab (or a Claude outside pocketmux) opened while the agent is out of reach: its name and
 * last-known status, the offline bar, and its conversation as this device saved it, read-only
 * (no composer, no terminal). With no tab (`tabId` null) it stands for Settings,
 * which needs the agent.
 */
@customElement('pm-offline-tab')
export class OfflineTab extends LitElement {
  static override styles = [
    controls,
    css`
      :host {
        position: fixed;
        inset: 0 0 auto 0;
        height: var(--pm-viewport-height, 100dvh);
        display: flex;
        flex-direction: column;
        background: var(--pm-bg);
        z-index: 2;
      }
      header {
        flex: none;
        display: flex;
        align-items: center;
        gap: 4px;
        min-height: 56px;
        padding: var(--pm-safe-top) calc(12px + var(--pm-safe-right)) 0 calc(2px + var(--pm-safe-left));
        background: var(--pm-surface);
      }
      .title {
        flex: 1 1 auto;
        min-width: 0;
        display: flex;
        flex-direction: column;
        line-height: 1.25;
      }
      .name {
        display: flex;
        align-items: center;
        gap: 7px;
        min-width: 0;
      }
      h1 {
        margin: 0;
        font-size: 15px;
        font-weight: 650;
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .where {
        color: var(--pm-muted);
        font-size: 13px;
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      .body {
        flex: 1 1 auto;
        min-height: 0;
        display: flex;
        flex-direction: column;
      }
      .placeholder {
        margin: auto;
        padding: 32px 24px calc(32px + var(--pm-safe-bottom));
        max-width: 440px;
        text-align: center;
        color: var(--pm-muted);
      }
    `,
  ];

  @property({ attribute: false }) snapshot!: SessionsSnapshot;
  /** The tab's id or the outside session's key; null for Settings. */
  @property({ attribute: false }) tabId: string | null = null;
  @state() private saved: Saved = null;
  @state() private viewLoaded = false;

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('tabId') || changed.has('snapshot')) void this.load();
  }

  /** Looks for the tab's saved timeline, and fetches the timeline's chunk to show it. */
  private async load(): Promise<void> {
    const key = this.tabId;
    if (key === null || this.saved?.key === key || !this.hasTimeline(key)) return;
    this.saved = null;
    const [timeline] = await Promise.all([
      readTimeline(key),
      this.viewLoaded ? undefined : import('../timeline/timeline-view.js').then(() => (this.viewLoaded = true)).catch(() => undefined),
    ]);
    // The person may have moved on to another tab meanwhile.
    if (this.tabId === key) this.saved = { key, timeline: this.viewLoaded ? timeline : 'not-loaded' };
  }

  private hasTimeline(key: string): boolean {
    const place = sessionPlaces(this.snapshot).get(key);
    return placeHasTimeline(place, this.snapshot.statuses[key]);
  }

  override render() {
    const key = this.tabId;
    if (key === null) return this.frame('Settings', '', nothing, html`<p class="placeholder">Settings need pocketmux: devices, notifications and the rest show here once it is back.</p>`);
    const place = sessionPlaces(this.snapshot).get(key);
    const status = this.snapshot.statuses[key];
    const names = placeNames(place, key);
    const described = place ? describeStatus(isOutsidePlace(place) ? { kind: 'claude' } : place.tab, status) : null;
    const dot = described ? html`<pm-status-dot state=${described.state} label=${described.text}></pm-status-dot>` : nothing;
    return this.frame(names.tab, names.workspace, dot, this.renderBody(key, !!place));
  }

  private frame(title: string, where: string, dot: unknown, body: unknown) {
    return html`<header>
        <button class="icon ghost" aria-label="Back to sessions" @click=${() => router.toList()}>${backIcon()}</button>
        <div class="title">
          <span class="name">${dot}<h1><bdi>${title}</bdi></h1></span>
          ${where ? html`<span class="where"><bdi>${where}</bdi></span>` : nothing}
        </div>
      </header>
      <pm-offline-bar .savedAt=${this.snapshot.savedAt}></pm-offline-bar>
      <main class="body">${body}</main>`;
  }

  private renderBody(key: string, known: boolean) {
    if (!known) return html`<p class="placeholder">This device has nothing saved for this tab.</p>`;
    if (!this.hasTimeline(key)) return html`<p class="placeholder">The terminal needs pocketmux: it shows here once pocketmux is back.</p>`;
    const saved = this.saved;
    if (saved?.key !== key) return html`<p class="placeholder" role="status">Reading what this device saved…</p>`;
    if (saved.timeline === 'not-loaded') return html`<p class="placeholder">The saved conversation could not be shown: part of the app did not load.</p>`;
    if (!saved.timeline) return html`<p class="placeholder">${NOTHING_SAVED}</p>`;
    return keyed(key, html`<pm-timeline-view .tabId=${key} .saved=${saved.timeline.entries}></pm-timeline-view>`);
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-offline-tab': OfflineTab;
  }
}
