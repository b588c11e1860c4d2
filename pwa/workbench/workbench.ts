import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import type { WorkspaceView } from '../../protocol/api.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import type { TabStatus } from '../../protocol/status.js';
import { router, type TabViewMode, tabViewPath } from '../core/router.js';
import '../tab/tab-screen.js';
import type { TabScreen } from '../tab/tab-screen.js';
import {
  closePane,
  equalize,
  focusPane,
  KEY_STEP,
  keepPanes,
  type Layout,
  loadLayout,
  MAX_PANES,
  MIN_SHARE,
  moveDivider,
  openBeside,
  openInFocused,
  type PaneSpec,
  saveLayout,
  type SplitDirection,
  setDirection,
  singlePane,
} from './layout.js';
import './pane-actions.js';
import { describePane, type PaneCandidate, paneCandidates, tabOrder } from './tab-order.js';
import { deviceStorage } from '../core/device-storage.js';

interface Drag {
  divider: number;
  pointer: number;
  start: Layout;
  /** The panes' whole length along the split, in CSS pixels. */
  length: number;
}


/**
 * The main area of a wide screen, right of the sidebar: one to four tabs, each a terminal or a
 * timeline with its own header, side by side or stacked, with dividers to drag (or move with
 * the arrow keys). The focused pane is the one the address names, so the sidebar, the
 * shortcuts and a reload all go through the route; the layout is remembered on this device.
 * Light DOM, as the terminal views inside need it (xterm's stylesheet is the document's).
 */
@customElement('pm-workbench')
export class Workbench extends LitElement {
  /** The route's tab: it shows in the focused pane. */
  @property() tabId = '';
  @property() view: TabViewMode = 'terminal';
  @property({ attribute: false }) workspaces: readonly WorkspaceView[] = [];
  @property({ attribute: false }) outside: readonly OutsideSessionView[] = [];
  /** Whether the sync channel has listed the tabs yet: panes of tabs gone since are closed once it has. */
  @property({ type: Boolean }) loaded = false;
  @property({ attribute: false }) statuses: Readonly<Record<string, TabStatus>> = {};

  @state() private layout: Layout | null = null;
  private pruned = false;
  private drag: Drag | null = null;
  private lastFocused = -1;
  /** The panes' tabs as last told to the app. */
  private shownKey = '';

  protected override createRenderRoot(): HTMLElement {
    return this;
  }

  /** The tabs shown now, in pane order. */
  get panes(): readonly PaneSpec[] {
    return this.layout?.panes ?? [];
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if ((changed.has('tabId') || changed.has('view')) && this.tabId) {
      const spec = { tabId: this.tabId, view: this.view };
      const store = deviceStorage();
      const base = this.layout ?? (store && loadLayout(store)) ?? singlePane(spec);
      this.setLayout(openInFocused(base, spec));
    }
    if (!this.pruned && this.loaded && this.layout) {
      // A layout remembered from an earlier visit may name tabs closed since; the route's own
      // tab stays (its pane says it ended).
      this.pruned = true;
      const known = new Set(tabOrder(this.workspaces, this.outside));
      this.setLayout(keepPanes(this.layout, (id) => id === this.tabId || known.has(id)));
    }
  }

  protected override updated(): void {
    this.announcePanes();
    const focused = this.layout?.focused ?? -1;
    if (focused === this.lastFocused) return;
    this.lastFocused = focused;
    // A pane chosen from the keyboard (a shortcut, the sidebar) takes the keys; one clicked has them already.
    const pane = this.paneElements()[focused];
    if (pane && !pane.contains(document.activeElement)) pane.focusView();
  }

  /** Tells the app which tabs are on screen (their inbox cards then offer no way to them). */
  private announcePanes(): void {
    const ids = this.panes.map((p) => p.tabId);
    const key = ids.join(' ');
    if (key === this.shownKey) return;
    this.shownKey = key;
    this.dispatchEvent(new CustomEvent<ReadonlySet<string>>('pm-panes', { detail: new Set(ids), bubbles: true }));
  }

  private paneElements(): TabScreen[] {
    return [...this.querySelectorAll<TabScreen>(':scope > .pm-panes > pm-terminal-view')];
  }

  private setLayout(next: Layout, remember = true): void {
    if (next === this.layout) return;
    this.layout = next;
    const store = deviceStorage();
    if (remember && store) saveLayout(store, next);
  }

  /** The focused pane's tab goes in the address, which is what every other part follows. */
  private followFocus(): void {
    const pane = this.layout?.panes[this.layout.focused];
    if (pane) router.replace(tabViewPath(pane.tabId, pane.view));
  }

  private focusAt(index: number): void {
    if (!this.layout || index === this.layout.focused) return;
    this.setLayout(focusPane(this.layout, index));
    this.followFocus();
  }

  private closeAt(index: number): void {
    if (!this.layout) return;
    if (this.layout.panes.length <= 1) {
      router.toList();
      return;
    }
    this.setLayout(closePane(this.layout, index));
    this.followFocus();
  }

  private openBesideAt(index: number, tabId: string): void {
    if (!this.layout) return;
    // A Claude started outside tmux has no terminal to show: its conversation opens instead.
    const view = this.outside.find((s) => s.key === tabId)?.terminal === 'none' ? 'timeline' : 'terminal';
    this.setLayout(openBeside(focusPane(this.layout, index), { tabId, view }));
    this.followFocus();
  }

  private direct(direction: SplitDirection): void {
    if (this.layout) this.setLayout(setDirection(this.layout, direction));
  }

  private paneName(tabId: string): string {
    return describePane(this.workspaces, this.outside, tabId)?.name ?? 'Terminal';
  }

  override render() {
    const layout = this.layout;
    if (!layout) return nothing;
    const shown = new Set(layout.panes.map((p) => p.tabId));
    const candidates: PaneCandidate[] = paneCandidates(this.workspaces, this.outside, shown);
    const tab = (id: string) => {
      for (const ws of this.workspaces) {
        const found = ws.tabs.find((t) => t.id === id);
        if (found) return found;
      }
      return undefined;
    };
    return html`<div class="pm-panes ${layout.direction}">
      ${repeat(
        layout.panes,
        (p) => p.tabId,
        (p, i) => html`${i > 0 ? this.renderDivider(layout, i - 1) : nothing}
          <pm-terminal-view
            pane
            data-tab-id=${p.tabId}
            ?focused=${i === layout.focused}
            ?closable=${layout.panes.length > 1}
            style=${`flex: ${layout.sizes[i] ?? 1} 1 0%`}
            .tabId=${p.tabId}
            .view=${p.view}
            .tab=${tab(p.tabId)}
            .outside=${this.outside.find((s) => s.key === p.tabId)}
            .status=${this.statuses[p.tabId]}
            @pointerdown=${() => this.focusAt(i)}
            @focusin=${() => this.focusAt(i)}
            @pm-close-pane=${(e: Event) => {
              e.stopPropagation();
              this.closeAt(i);
            }}
            @pm-open-beside=${(e: CustomEvent<{ tabId: string }>) => this.openBesideAt(i, e.detail.tabId)}
            @pm-split-direction=${(e: CustomEvent<{ direction: SplitDirection }>) => this.direct(e.detail.direction)}
          >
            <pm-pane-actions
              slot="bell"
              .count=${layout.panes.length}
              .max=${MAX_PANES}
              .direction=${layout.direction}
              .paneName=${this.paneName(p.tabId)}
              .candidates=${candidates}
            ></pm-pane-actions>
          </pm-terminal-view>`,
      )}
    </div>`;
  }

  private renderDivider(layout: Layout, divider: number) {
    const before = layout.sizes[divider] ?? 0;
    const after = layout.sizes[divider + 1] ?? 0;
    const share = Math.round((before / (before + after)) * 100);
    const names = [layout.panes[divider], layout.panes[divider + 1]].map((p) => (p ? this.paneName(p.tabId) : ''));
    const vertical = layout.direction === 'row';
    return html`<div
      class="pm-divider"
      role="separator"
      tabindex="0"
      aria-orientation=${vertical ? 'vertical' : 'horizontal'}
      aria-label=${`Resize ${names[0]} and ${names[1]}`}
      aria-valuemin=${Math.round(MIN_SHARE * 100)}
      aria-valuemax=${100 - Math.round(MIN_SHARE * 100)}
      aria-valuenow=${share}
      title="Drag to resize; double-click for equal sizes"
      @pointerdown=${(e: PointerEvent) => this.startDrag(e, divider)}
      @pointermove=${(e: PointerEvent) => this.moveDrag(e)}
      @pointerup=${(e: PointerEvent) => this.endDrag(e)}
      @pointercancel=${(e: PointerEvent) => this.endDrag(e)}
      @dblclick=${() => this.layout && this.setLayout(equalize(this.layout))}
      @keydown=${(e: KeyboardEvent) => this.onDividerKey(e, divider)}
    ></div>`;
  }

  private startDrag(e: PointerEvent, divider: number): void {
    if (!this.layout || e.button !== 0) return;
    const panes = this.querySelector<HTMLElement>(':scope > .pm-panes');
    if (!panes) return;
    const box = panes.getBoundingClientRect();
    const row = this.layout.direction === 'row';
    e.preventDefault();
    (e.currentTarget as HTMLElement).setPointerCapture(e.pointerId);
    this.drag = { divider, pointer: row ? e.clientX : e.clientY, start: this.layout, length: row ? box.width : box.height };
    this.classList.add('dragging');
  }

  private moveDrag(e: PointerEvent): void {
    const drag = this.drag;
    if (!drag || drag.length <= 0) return;
    const pointer = drag.start.direction === 'row' ? e.clientX : e.clientY;
    // Only the end of a drag is remembered; the panes follow the pointer on the way.
    this.setLayout(moveDivider(drag.start, drag.divider, (pointer - drag.pointer) / drag.length), false);
  }

  private endDrag(e: PointerEvent): void {
    if (!this.drag) return;
    this.moveDrag(e);
    this.drag = null;
    this.classList.remove('dragging');
    const store = deviceStorage();
    if (this.layout && store) saveLayout(store, this.layout);
  }

  private onDividerKey(e: KeyboardEvent, divider: number): void {
    if (!this.layout) return;
    const row = this.layout.direction === 'row';
    const grow = row ? 'ArrowRight' : 'ArrowDown';
    const shrink = row ? 'ArrowLeft' : 'ArrowUp';
    if (e.key === grow || e.key === shrink) {
      e.preventDefault();
      this.setLayout(moveDivider(this.layout, divider, e.key === grow ? KEY_STEP : -KEY_STEP));
    } else if (e.key === 'Home' || e.key === 'End') {
      e.preventDefault();
      this.setLayout(moveDivider(this.layout, divider, e.key === 'End' ? 1 : -1));
    } else if (e.key === 'Enter') {
      e.preventDefault();
      this.setLayout(equalize(this.layout));
    }
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-workbench': Workbench;
  }
}
