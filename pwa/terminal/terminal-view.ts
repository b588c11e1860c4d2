import { css, html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { PaneTitle, TabView } from '../../protocol/api.js';
import { CloseCode, NO_TERMINAL_REASON } from '../../protocol/close-codes.js';
import { isOutsideKey } from '../../protocol/hook-contract.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import type { TabStatus } from '../../protocol/status.js';
import { adoptIcon, backIcon, terminalIcon, timelineIcon } from '../shared/icons.js';
import '../shared/connection-note.js';
import './key-bar.js';
import { controls } from '../shared/shared-styles.js';
import '../shared/status-dot.js';
import { type BarKey, barKeySequence, withCtrl } from './keys.js';
import { outsideLabel, parsePaneTitle, shortPath, tabLabel } from '../sessions/labels.js';
import type { ConnectionState } from '../shared/reconnecting-socket.js';
import { router, type TabViewMode, tabViewPath } from '../shared/router.js';
import { canAdopt, describeStatus, hasTimeline } from '../sessions/tab-status.js';
import { AdoptController } from '../sessions/adopt-controller.js';
import type { TerminalSession, ViewShortcut } from './terminal-session.js';
import type { FindBar } from './find-bar.js';
import { TAB_MISSING_EVENT } from '../shared/tab-missing.js';
import { FIND_CLOSE_EVENT, FIND_SPACE_EVENT } from './find-count.js';
import { type HistoryState, historyNote } from './history-text.js';
import type { Finder } from './terminal-finder.js';
import { defaultFontSize, FONT_SIZE_MAX, FONT_SIZE_MIN, type FontSizeStep, loadFontSize, saveFontSize, stepFontSize } from './font-size.js';
import { SCREEN_NAME_EVENT } from './page-title.js';
import { minusIcon, plusIcon, searchIcon, textSizeIcon } from './terminal-icons.js';
import { onMac, TERMINAL_SHORTCUTS } from './terminal-shortcuts.js';
import { CLOSE_PANE_EVENT } from '../workbench/pane-actions.js';

const COARSE_POINTER = '(pointer: coarse)';

const MAC = onMac();

/** A shortcut's keys on this platform, for a button's tooltip. */
function keysOf(action: (typeof TERMINAL_SHORTCUTS)[number]['action']): string {
  const shortcut = TERMINAL_SHORTCUTS.find((s) => s.action === action);
  return shortcut ? (MAC ? shortcut.macKeys : shortcut.keys) : '';
}

function titleKey(title: PaneTitle | null): string {
  return title ? `${title.command}|${title.path}` : '';
}

/** Shown instead of the terminal of a Claude started outside tmux. */
export const NO_TERMINAL_TEXT =
  'No terminal: this Claude was started outside tmux. Its approvals, questions and timeline are here; type to it in its own terminal on the machine.';


function endedText(code: number, outside: boolean): string {
  if (outside) {
    switch (code) {
      case CloseCode.TabNotFound:
        return 'pocketmux no longer knows this Claude session: it ended, or stopped reporting here.';
      case CloseCode.SessionEnded:
        return 'The pane this Claude ran in is gone: it was closed, or its tmux server ended.';
    }
  }
  switch (code) {
    case CloseCode.TabNotFound:
      return 'pocketmux has no tab at this address: it was closed, here or on another device, or the link is not one of its tabs.';
    case CloseCode.SessionEnded:
      return 'The shell in this tab exited, or the tab was closed.';
    case CloseCode.DeviceRevoked:
      return 'This device was removed from pocketmux. Pair it again to continue.';
    case CloseCode.ConnectionLimit:
      return 'Too many terminals were open on the agent, so it closed this one, the oldest. The shell is still running.';
    default:
      return 'The agent closed this terminal because a message was not understood.';
  }
}

/**
 * A tab, full screen: its terminal, or for a Claude tab its conversation as a timeline; the
 * app's `bell` slot in the header. In the desktop split (workbench.ts) it is one pane among
 * up to four, its header ending with the pane's own actions in that slot.
 * A Claude started outside pocketmux opens here too, by its key: its terminal when it runs in
 * tmux (else a word on why there is none), and its timeline; between turns its header offers
 * to adopt it, and the new tab's terminal takes this screen's place.
 * xterm.js and the timeline each load only when first shown, so the session list never
 * downloads them and the timeline never pulls in xterm.
 */
@customElement('pm-terminal-view')
export class TerminalView extends LitElement {
  static override styles = [
    controls,
    css`
      .tools {
        display: contents;
      }
      /* Measured on the view itself, not the window: in the desktop split a pane is narrow on a wide screen. */
      @container (max-width: 600px) {
        header.crowded .tools {
          display: none;
        }
      }
      /* A quarter of a laptop's split would cut even a shell's name to a letter: the tools give way there too. */
      @container (max-width: 280px) {
        .tools {
          display: none;
        }
      }

      :host {
        position: fixed;
        top: 0;
        left: 0;
        right: 0;
        height: var(--pm-viewport-height, 100dvh);
        display: flex;
        flex-direction: column;
        background: var(--pm-bg);
        z-index: 2;
        container-type: inline-size;
      }
      /* A pane of the desktop split: as large as the workbench gives it. */
      :host([pane]) {
        position: relative;
        top: auto;
        left: auto;
        right: auto;
        height: auto;
        min-width: 0;
        min-height: 0;
        z-index: auto;
      }
      :host([pane]) header {
        padding: 0 6px 0 10px;
      }
      /* The pane with the keyboard: a line in the accent colour under its header. */
      :host([pane][focused]) header {
        box-shadow: inset 0 -2px 0 var(--pm-accent);
      }
      header {
        flex: none;
        display: flex;
        align-items: center;
        gap: 4px;
        min-height: 48px;
        padding: var(--pm-safe-top) calc(8px + var(--pm-safe-right)) 0 calc(2px + var(--pm-safe-left));
        background: var(--pm-surface);
        border-bottom: 1px solid var(--pm-border);
      }
      .title {
        flex: 1 1 auto;
        min-width: 0;
        display: flex;
        flex-direction: column;
        justify-content: center;
        line-height: 1.2;
      }
      .name {
        display: flex;
        align-items: center;
        gap: 7px;
        min-width: 0;
      }
      .primary-text {
        font-weight: 650;
        font-size: 15px;
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
      }
      /* Paths lose their start, not their end: the last directory says the most. */
      .secondary-text {
        color: var(--pm-muted);
        font-family: var(--pm-mono);
        font-size: 12px;
        white-space: nowrap;
        overflow: hidden;
        text-overflow: ellipsis;
        direction: rtl;
        text-align: left;
      }
      /*
       * Beside a state the name keeps its room, up to most of the line: a phone's header is
       * narrow, and a short name ("Claude") cut to its first letter says nothing. The state
       * gives way with an ellipsis; the dot before the name still shows it.
       */
      .primary-text:not(:last-child) {
        flex-shrink: 0;
        max-width: 60%;
      }
      .state-text {
        flex: 0 1 auto;
        min-width: 0;
        overflow: hidden;
        text-overflow: ellipsis;
        font-size: 12px;
        font-weight: 600;
        white-space: nowrap;
        color: var(--pm-muted);
      }
      .state-text.needs-input {
        color: var(--pm-attention);
      }
      .state-text.ready-for-review {
        color: var(--pm-review);
      }
      .state-text.busy {
        color: var(--pm-busy);
      }
      .switch {
        flex: none;
        display: inline-flex;
        padding: 2px;
        gap: 2px;
        border-radius: 12px;
        background: var(--pm-bg);
        border: 1px solid var(--pm-border);
      }
      .switch button {
        border: none;
        background: transparent;
        color: var(--pm-muted);
        min-height: 40px;
        padding: 0 12px;
      }
      .switch button[aria-pressed='true'] {
        background: var(--pm-surface-3);
        color: var(--pm-text);
      }
      /* On a phone (or in a narrow pane) the two choices keep their icons and lose their words (still their names). */
      @container (max-width: 560px) {
        .switch button {
          padding: 0;
          width: 44px;
        }
        .switch .word {
          position: absolute;
          width: 1px;
          height: 1px;
          overflow: hidden;
          clip-path: inset(50%);
        }
      }
      /* The tab's view, and on a wide screen what Claude asks beside it. */
      .body {
        flex: 1 1 auto;
        min-height: 0;
        display: flex;
      }
      .main {
        flex: 1 1 auto;
        min-width: 0;
        display: flex;
        flex-direction: column;
      }
      .stage {
        position: relative;
        flex: 1 1 auto;
        min-height: 0;
        display: flex;
      }
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
        background: var(--pm-warn-bg);
        border: 1px solid var(--pm-warn-border);
        color: var(--pm-warn);
        font-size: 14px;
        white-space: nowrap;
        box-shadow: 0 6px 20px var(--pm-shadow);
      }
      .banner button {
        font-size: 14px;
        border-color: var(--pm-warn-border);
        background: transparent;
        color: var(--pm-text);
      }
      .overlay {
        position: absolute;
        inset: 0;
        display: grid;
        place-items: center;
        padding: 24px;
        background: color-mix(in srgb, var(--pm-bg) 82%, transparent);
        backdrop-filter: blur(2px);
      }
      .card {
        max-width: 360px;
        display: flex;
        flex-direction: column;
        gap: 12px;
        padding: 20px;
        border-radius: var(--pm-radius);
        background: var(--pm-surface);
        border: 1px solid var(--pm-border);
        text-align: center;
      }
      .card h2 {
        margin: 0;
        font-size: 19px;
      }
      .card p {
        margin: 0;
        color: var(--pm-muted);
      }
      .no-terminal {
        display: grid;
        place-items: center;
        padding: 24px;
      }
      .no-terminal .card {
        align-items: center;
      }
      .no-terminal .glyph {
        display: grid;
        place-items: center;
        width: 44px;
        height: 44px;
        border-radius: 12px;
        background: var(--pm-surface-2);
        color: var(--pm-muted);
      }
      .no-terminal .card p {
        color: var(--pm-text);
        line-height: 1.45;
      }
      .adopt[aria-expanded='true'] {
        background: var(--pm-surface-2);
      }
      .adopt-panel {
        flex: none;
        display: flex;
        flex-direction: column;
        gap: 8px;
        padding: 8px calc(8px + var(--pm-safe-right)) 8px calc(8px + var(--pm-safe-left));
        background: var(--pm-surface);
        border-bottom: 1px solid var(--pm-border);
      }
      .adopt-panel .error {
        padding: 0 4px;
      }
      /* xterm's layers (the WebGL renderer's canvases, its helpers) stack among themselves, under
         what this view lays over the terminal: find, the text size, banners, the ended card. */
      ::slotted(.pm-term-host) {
        isolation: isolate;
      }
      /* The text size, under its header button, over the terminal's top right corner. */
      .size-panel {
        position: absolute;
        top: 8px;
        right: calc(16px + var(--pm-safe-right));
        z-index: 1;
        display: flex;
        align-items: center;
        gap: 4px;
        padding: 4px;
        border-radius: var(--pm-radius);
        background: var(--pm-surface);
        border: 1px solid var(--pm-border);
        box-shadow: 0 6px 20px var(--pm-shadow);
      }
      .size-panel output {
        min-width: 52px;
        text-align: center;
        font-size: 14px;
        font-variant-numeric: tabular-nums;
      }
      .size-panel button {
        min-height: 40px;
        min-width: 40px;
        padding: 0 10px;
      }
      .size-panel button.icon {
        padding: 0;
      }
      /* A finger needs 44 px; a mouse does with the smaller switch and panel. */
      @media (pointer: coarse) {
        .switch button,
        .size-panel button {
          min-height: var(--pm-tap);
        }
        .size-panel button {
          min-width: var(--pm-tap);
        }
      }
      .loading {
        position: absolute;
        inset: 0;
        display: grid;
        place-items: center;
        color: var(--pm-muted);
      }
    `,
  ];

  @property() tabId = '';
  /** The tab as the sync channel last described it; undefined until known. */
  @property({ attribute: false }) tab: TabView | undefined;
  /** For an outside session's key: the session as the sync channel last listed it; undefined until known. */
  @property({ attribute: false }) outside: OutsideSessionView | undefined;
  @property() view: TabViewMode = 'terminal';
  /** The tab's Claude status, when the agent has one. */
  @property({ attribute: false }) status: TabStatus | undefined;
  /**
   * A pane of the desktop split (workbench.ts) rather than the whole screen. Beside other panes
   * it has no way back (the sidebar is beside it), and its ended card closes the pane.
   */
  @property({ type: Boolean, reflect: true }) pane = false;
  /** In the split, whether this pane has the keyboard: it names the page and takes the focus when it starts. */
  @property({ type: Boolean, reflect: true }) focused = false;
  /** In the split, whether other panes stand beside this one: it then closes rather than leading back to the list. */
  @property({ type: Boolean }) closable = false;
  @state() private timelineLoaded = false;

  @state() private connection: ConnectionState = { kind: 'connecting' };
  /** The timeline shown here was closed by the agent: it has no tab by this address. */
  @state() private timelineMissing = false;
  @state() private liveTitle: PaneTitle | null = null;
  @state() private loaded = false;
  @state() private loadError = '';
  @state() private ctrl = false;
  @state() private touch = matchMedia(COARSE_POINTER).matches;
  /** The terminal's text size on this device (font-size.ts). */
  @state() private fontSize = loadFontSize(this.touch);
  @state() private findOpen = false;
  /** While find is open, how the pane's history it searches stands (history-snapshot.ts). */
  @state() private historyState: HistoryState | null = null;
  /** The snapshot of that history, searched in place of the screen. */
  private historyFinder: Finder | null = null;
  @state() private sizeOpen = false;

  /** Adopting the outside session on screen; its new tab replaces it here. */
  private readonly adoption = new AdoptController(this, (path) => router.replace(path));
  private knownTab: TabView | undefined;
  private knownOutside: OutsideSessionView | undefined;
  private session: TerminalSession | null = null;
  /** The name last given to the page title (page-title.ts). */
  private screenName = '';
  private termHost: HTMLDivElement | null = null;
  /** Bumped on every start, so a slow import never attaches to a view that moved on. */
  private generation = 0;
  private readonly media = matchMedia(COARSE_POINTER);
  private readonly onPointerChange = () => {
    this.touch = this.media.matches;
  };
  private readonly onViewport = () => {
    // iOS does not shrink the layout for its keyboard; follow the visual viewport instead.
    const vv = window.visualViewport;
    if (this.pane) return;
    // Pinch-zoom shrinks the visual viewport too; only the keyboard should shrink the terminal.
    if (vv) this.style.setProperty('--pm-viewport-height', `${Math.round(vv.height * vv.scale)}px`);
  };

  constructor() {
    super();
    this.addEventListener(FIND_CLOSE_EVENT, () => this.closeFind());
    this.addEventListener(TAB_MISSING_EVENT, () => {
      this.timelineMissing = true;
    });
    // The snapshot of the history (in the light DOM) starts below the find bar.
    this.addEventListener(FIND_SPACE_EVENT, (e) => this.style.setProperty('--pm-find-space', `${(e as CustomEvent<number>).detail}px`));
  }

  override connectedCallback(): void {
    super.connectedCallback();
    this.media.addEventListener('change', this.onPointerChange);
    window.visualViewport?.addEventListener('resize', this.onViewport);
    this.onViewport();
    // After the first update: the element may have been created before its code loaded (the tab
    // screen is a chunk of its own), and then its tab and view are applied only by that update.
    void this.updateComplete.then(() => {
      if (this.isConnected) void this.show();
    });
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.media.removeEventListener('change', this.onPointerChange);
    window.visualViewport?.removeEventListener('resize', this.onViewport);
    this.stop();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    // A session that stopped reporting drops out of the list; keep naming it.
    if (changed.has('outside') && this.outside) this.knownOutside = this.outside;
    // A confirmation belongs to the session it was asked for.
    if (changed.has('tabId') && changed.get('tabId') !== undefined) this.adoption.cancel();
    if (!changed.has('tab')) return;
    const before = this.knownTab;
    // A closed tab drops out of the sync list; keep naming it while "Session ended" shows.
    if (this.tab) this.knownTab = this.tab;
    // The agent's polled title and tmux's own title report the same thing; the newer wins.
    if (this.tab && before && titleKey(before.title) !== titleKey(this.tab.title)) this.liveTitle = null;
  }

  protected override updated(changed: PropertyValues<this>): void {
    // The pane that takes the keyboard names the page again.
    if (changed.has('focused') && this.focused) this.screenName = '';
    this.nameScreen();
    const moved = (changed.has('tabId') && changed.get('tabId') !== undefined) || (changed.has('view') && changed.get('view') !== undefined);
    if (moved && this.isConnected) {
      this.stop();
      void this.show();
      return;
    }
    if (!changed.has('outside') || !this.isConnected || !this.isOutside || this.view !== 'terminal') return;
    // The list says late (after a reload on this page) that the session has no terminal…
    if (this.outsideHasNoTerminal && this.termHost) this.stop();
    // …or that it has one now (it was listed as started outside tmux before).
    else if (!this.outsideHasNoTerminal && !this.termHost) void this.show();
  }

  private get isOutside(): boolean {
    return isOutsideKey(this.tabId);
  }

  /** Whether the list says this is a Claude started outside tmux: nothing to attach to. */
  private get outsideHasNoTerminal(): boolean {
    return this.isOutside && this.currentOutside?.terminal === 'none';
  }

  /** The outside session on screen, as last listed (it may have dropped out of the list since). */
  private get currentOutside(): OutsideSessionView | undefined {
    const shown = this.outside ?? this.knownOutside;
    return shown?.key === this.tabId ? shown : undefined;
  }

  /** No terminal to show: the list says so, or the agent refused to attach for that reason. */
  private get noTerminal(): boolean {
    if (!this.isOutside) return false;
    const c = this.connection;
    return this.outsideHasNoTerminal || (c.kind === 'closed-final' && c.code === CloseCode.TabNotFound && c.reason === NO_TERMINAL_REASON);
  }

  /** Starts what the current view needs; the terminal's socket is open only while it shows. */
  private async show(): Promise<void> {
    this.timelineMissing = false;
    if (this.view === 'timeline') await this.loadTimeline();
    else if (!this.outsideHasNoTerminal) await this.start();
  }

  private async loadTimeline(): Promise<void> {
    const generation = ++this.generation;
    this.loadError = '';
    try {
      await import('../timeline/timeline-view.js');
    } catch (err) {
      if (generation === this.generation) this.loadError = (err as Error).message;
      return;
    }
    if (generation === this.generation) this.timelineLoaded = true;
  }

  private switchTo(view: TabViewMode): void {
    router.replace(tabViewPath(this.tabId, view));
  }

  private async start(): Promise<void> {
    const generation = ++this.generation;
    this.connection = { kind: 'connecting' };
    this.liveTitle = null;
    this.loadError = '';
    this.ctrl = false;
    this.findOpen = false;
    this.sizeOpen = false;
    const host = document.createElement('div');
    host.className = 'pm-term-host';
    this.termHost = host;
    this.append(host);
    let mod: typeof import('./terminal-session.js');
    try {
      mod = await import('./terminal-session.js');
    } catch (err) {
      if (generation === this.generation) this.loadError = (err as Error).message;
      return;
    }
    if (generation !== this.generation) return;
    this.loaded = true;
    this.session = new mod.TerminalSession({
      tabId: this.tabId,
      host,
      fontSize: this.fontSize,
      onState: (s) => {
        this.connection = s;
      },
      onTitle: (t) => {
        this.liveTitle = parsePaneTitle(t);
      },
      onShortcut: (action) => this.onShortcut(action),
    });
    this.session.setInputTransform((data) => {
      if (!this.ctrl) return data;
      this.ctrl = false;
      return withCtrl(data);
    });
    // On a phone, focusing would pop the keyboard over the screen before the person asked; in
    // the split only the focused pane takes the keys.
    if (!this.touch && (!this.pane || this.focused)) this.session.focus();
  }

  /** Gives the keyboard to what this view shows: the terminal, or the timeline's composer. */
  focusView(): void {
    if (this.session) this.session.focus();
    else this.renderRoot.querySelector<HTMLElement>('pm-timeline-view')?.focus();
  }

  private stop(): void {
    this.generation++;
    this.findOpen = false;
    this.sizeOpen = false;
    this.loadError = '';
    this.session?.dispose();
    this.session = null;
    this.termHost?.remove();
    this.termHost = null;
    this.loaded = false;
  }

  private onKey(key: BarKey): void {
    const session = this.session;
    if (!session) return;
    session.sendKeys(barKeySequence(key, { ctrl: this.ctrl, applicationCursor: session.applicationCursorKeys }));
    this.ctrl = false;
  }

  private onLine(text: string): void {
    this.session?.sendLine(text);
  }

  /** The key bar's Paste: the clipboard's text, pasted as a paste (bracketed), not typed. */
  private async onPaste(): Promise<void> {
    let text: string;
    try {
      text = await navigator.clipboard.readText();
    } catch {
      // Refused: nothing to paste.
      return;
    }
    this.session?.paste(text);
  }

  private onShortcut(action: ViewShortcut): void {
    if (action === 'find') void this.openFind();
    else this.changeFontSize(action === 'font-bigger' ? 'bigger' : action === 'font-smaller' ? 'smaller' : 'reset');
  }

  private async openFind(): Promise<void> {
    const session = this.session;
    if (!session) return;
    this.sizeOpen = false;
    // The screen holds no history of its own: find fetches the pane's and lays it over the terminal.
    if (!this.findOpen) {
      this.historyFinder = session.openHistory((state) => {
        if (this.session === session) this.historyState = state;
      });
    }
    this.findOpen = true;
    await this.updateComplete;
    await this.renderRoot.querySelector<FindBar>('pm-find-bar')?.focusField();
  }

  private closeFind(): void {
    if (!this.findOpen) return;
    this.findOpen = false;
    this.session?.finder.clear();
    this.session?.closeHistory();
    this.historyFinder = null;
    this.historyState = null;
    this.session?.scrollToBottom();
    // On a phone, focus would pop the keyboard up over the screen.
    if (!this.touch) this.session?.focus();
  }

  private toggleFind(): void {
    if (this.findOpen) this.closeFind();
    else void this.openFind();
  }

  private toggleSize(): void {
    this.sizeOpen = !this.sizeOpen;
    if (this.sizeOpen && this.findOpen) this.closeFind();
  }

  /** A new text size: kept on this device, and the terminal refits (telling tmux its new size). */
  private changeFontSize(step: FontSizeStep): void {
    this.fontSize = stepFontSize(this.fontSize, step, defaultFontSize(this.touch));
    saveFontSize(this.fontSize, this.touch);
    this.session?.setFontSize(this.fontSize);
  }

  /** Tells the app what to call the page while this screen shows: the tab's name. */
  private nameScreen(): void {
    if (this.pane && !this.focused) return;
    const name = this.label.primary;
    if (name === this.screenName) return;
    this.screenName = name;
    this.dispatchEvent(new CustomEvent(SCREEN_NAME_EVENT, { detail: name, bubbles: true }));
  }

  /**
   * The agent has no tab (or Claude session) by this address: a link to one that was closed,
   * or one that never was. Nothing on this screen can work then, so it offers only the way back.
   */
  private get missing(): boolean {
    const c = this.connection;
    return this.timelineMissing || (c.kind === 'closed-final' && c.code === CloseCode.TabNotFound);
  }

  private get label(): { primary: string; secondary: string } {
    if (this.missing && !this.knownTab && !this.knownOutside) return { primary: this.isOutside ? 'No such session' : 'No such tab', secondary: '' };
    if (this.isOutside) {
      const l = outsideLabel(this.currentOutside?.cwd ?? null);
      return { primary: l.primary, secondary: l.path };
    }
    if (this.knownTab?.id === this.tabId) {
      const l = tabLabel(this.knownTab, this.liveTitle);
      // Whatever runs in a Claude tab (claude, or the shell after it exits), it is "Claude".
      if (this.knownTab.kind === 'claude' && !this.knownTab.name) return { primary: 'Claude', secondary: l.path };
      return { primary: l.primary, secondary: l.command ? `${l.command} · ${l.path}` : l.path };
    }
    if (this.liveTitle) return { primary: this.liveTitle.command, secondary: shortPath(this.liveTitle.path) };
    return { primary: 'Terminal', secondary: '' };
  }

  override render() {
    const label = this.label;
    // A Claude outside pocketmux is always a Claude, with a conversation to show.
    const claude = this.isOutside ? { kind: 'claude' as const } : this.knownTab;
    const status = claude ? describeStatus(claude, this.status) : null;
    const timeline = this.view === 'timeline' || hasTimeline(claude, this.status);
    const noTerminal = this.noTerminal;
    const outside = this.currentOutside;
    if (this.missing) return this.renderMissing(label);
    // Offered while the list holds the session and it is between turns; an open confirmation stays.
    const adoptable = this.isOutside && ((this.outside?.key === this.tabId && canAdopt(this.status)) || this.adoption.confirming);
    // On a phone a Claude's header holds the view switch (and Adopt): find and the text size
    // give way there so its name keeps its room; the keyboard shortcuts still do both.
    return html`
      <header class=${timeline || adoptable ? 'crowded' : ''}>
        ${this.pane && this.closable ? nothing : html`<button class="icon ghost" aria-label="Back to sessions" @click=${() => router.toList()}>${backIcon()}</button>`}
        <div class="title">
          <span class="name">
            ${status ? html`<pm-status-dot state=${status.state} label=${status.text}></pm-status-dot>` : nothing}
            <span class="primary-text"><bdi>${label.primary}</bdi></span>
            ${status && (status.state !== 'idle' || !status.text.startsWith('Idle')) ? html`<span class="state-text ${status.state}" aria-hidden="true">${status.text}</span>` : nothing}
          </span>
          <span class="secondary-text"><bdi>${label.secondary}</bdi></span>
        </div>
        ${this.view === 'terminal' && !noTerminal ? html`<pm-connection-note label=${this.connectionNote}></pm-connection-note>` : nothing}
        ${this.view === 'terminal' && !noTerminal ? this.renderTools() : nothing}
        ${timeline ? this.renderSwitch() : nothing}
        ${adoptable
          ? html`<button
              class="icon ghost adopt"
              aria-label=${`Adopt ${label.primary} as a pocketmux tab`}
              title="Adopt as a pocketmux tab"
              aria-expanded=${this.adoption.confirming}
              @click=${() => this.adoption.toggle()}
            >
              ${adoptIcon()}
            </button>`
          : nothing}
        <slot name="bell"></slot>
      </header>
      ${this.adoption.confirming && outside ? html`<div class="adopt-panel">${this.adoption.renderPanel(outside)}</div>` : nothing}
      <div class="body">
        <div class="main">${this.view === 'timeline' ? this.renderTimeline() : noTerminal ? this.renderNoTerminal() : this.renderTerminal()}</div>
      </div>
    `;
  }

  private get connectionNote(): string {
    const c = this.connection;
    return !this.loaded || c.kind === 'connecting' ? 'Connecting…' : c.kind === 'reconnecting' ? 'Offline' : '';
  }

  /** Find and the text size: header buttons for what the terminal's shortcuts also do. */
  private renderTools() {
    const ready = this.loaded && this.session !== null;
    return html`<span class="tools"><button
        class="icon ghost"
        aria-label="Find"
        title=${`Find (${keysOf('find')})`}
        aria-expanded=${this.findOpen}
        ?disabled=${!ready}
        @click=${this.toggleFind}
      >
        ${searchIcon()}
      </button>
      <button class="icon ghost" aria-label="Text size" title="Text size" aria-expanded=${this.sizeOpen} @click=${this.toggleSize}>
        ${textSizeIcon()}
      </button></span>`;
  }

  private renderSizePanel() {
    return html`<div class="size-panel" role="group" aria-label="Text size" @keydown=${(e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      this.sizeOpen = false;
      this.session?.focus();
    }}>
      <button
        class="icon"
        aria-label="Smaller text"
        title=${`Smaller text (${keysOf('font-smaller')})`}
        ?disabled=${this.fontSize <= FONT_SIZE_MIN}
        @click=${() => this.changeFontSize('smaller')}
      >
        ${minusIcon()}
      </button>
      <output aria-live="polite">${this.fontSize} px</output>
      <button
        class="icon"
        aria-label="Bigger text"
        title=${`Bigger text (${keysOf('font-bigger')})`}
        ?disabled=${this.fontSize >= FONT_SIZE_MAX}
        @click=${() => this.changeFontSize('bigger')}
      >
        ${plusIcon()}
      </button>
      <button title=${`Default size (${keysOf('font-reset')})`} @click=${() => this.changeFontSize('reset')}>Reset</button>
    </div>`;
  }

  private renderSwitch() {
    const option = (view: TabViewMode, text: string, icon: unknown) =>
      html`<button type="button" aria-pressed=${this.view === view} title=${text} @click=${() => this.switchTo(view)}>
        ${icon}<span class="word">${text}</span>
      </button>`;
    return html`<div class="switch" role="group" aria-label="Show">
      ${option('terminal', 'Terminal', terminalIcon())} ${option('timeline', 'Timeline', timelineIcon())}
    </div>`;
  }

  private renderTimeline() {
    return html`<div class="stage">
      ${this.timelineLoaded ? html`<pm-timeline-view .tabId=${this.tabId}></pm-timeline-view>` : nothing}
      ${!this.timelineLoaded && !this.loadError ? html`<div class="loading" role="status">Loading timeline…</div>` : nothing}
      ${this.loadError ? this.renderLoadError('timeline') : nothing}
    </div>`;
  }

  private renderTerminal() {
    const c = this.connection;
    const ended = c.kind === 'closed-final' ? c.code : c.kind === 'access-lost' ? CloseCode.DeviceRevoked : null;
    return html`
      <div class="stage">
        <slot></slot>
        ${this.findOpen && this.session
          ? html`<pm-find-bar .finder=${this.historyFinder ?? this.session.finder} .note=${historyNote(this.historyState)}></pm-find-bar>`
          : nothing}
        ${this.sizeOpen ? this.renderSizePanel() : nothing}
        ${!this.loaded && !this.loadError ? html`<div class="loading" role="status">Loading terminal…</div>` : nothing}
        ${c.kind === 'reconnecting'
          ? html`<div class="banner" role="status">
              Reconnecting…
              <button type="button" @click=${() => this.session?.reconnectNow()}>Retry now</button>
            </div>`
          : nothing}
        ${ended === null || this.adoption.busy ? nothing : this.renderEnded(ended)}
        ${this.loadError ? this.renderLoadError('terminal') : nothing}
      </div>
      ${this.touch && ended === null
        ? html`<pm-key-bar
            ?ctrl=${this.ctrl}
            @pm-key=${(e: CustomEvent<{ key: BarKey }>) => this.onKey(e.detail.key)}
            @pm-ctrl=${(e: CustomEvent<{ on: boolean }>) => {
              this.ctrl = e.detail.on;
            }}
            @pm-line=${(e: CustomEvent<{ text: string }>) => this.onLine(e.detail.text)}
            @pm-paste=${() => void this.onPaste()}
          ></pm-key-bar>`
        : nothing}
    `;
  }

  private renderNoTerminal() {
    return html`<div class="stage no-terminal">
      <div class="card" role="note">
        <span class="glyph">${terminalIcon()}</span>
        <p>${NO_TERMINAL_TEXT}</p>
        <button class="primary" @click=${() => this.switchTo('timeline')}>${timelineIcon()} Show the timeline</button>
      </div>
    </div>`;
  }

  private renderMissing(label: { primary: string; secondary: string }) {
    const back = this.pane && this.closable;
    return html`
      <header>
        ${back ? nothing : html`<button class="icon ghost" aria-label="Back to sessions" @click=${() => router.toList()}>${backIcon()}</button>`}
        <div class="title">
          <span class="name"><span class="primary-text"><bdi>${label.primary}</bdi></span></span>
          <span class="secondary-text"><bdi>${label.secondary}</bdi></span>
        </div>
        <slot name="bell"></slot>
      </header>
      <div class="body">
        <div class="main">
          <div class="stage no-terminal">
            <div class="card" role="alert">
              <h2>${this.isOutside ? 'No such Claude session' : 'No such tab'}</h2>
              <p>${endedText(CloseCode.TabNotFound, this.isOutside)}</p>
              ${back
                ? html`<button class="primary" @click=${() => this.dispatchEvent(new CustomEvent(CLOSE_PANE_EVENT, { bubbles: true }))}>Close this pane</button>`
                : html`<button class="primary" @click=${() => router.toList()}>Back to sessions</button>`}
            </div>
          </div>
        </div>
      </div>
    `;
  }

  private renderEnded(code: number) {
    const stillRunning = code === CloseCode.ConnectionLimit || code === CloseCode.DeviceRevoked;
    return html`<div class="overlay">
      <div class="card" role="alert">
        <h2>${stillRunning ? 'Terminal closed' : 'Session ended'}</h2>
        <p>${endedText(code, this.isOutside)}</p>
        ${code === CloseCode.ConnectionLimit ? html`<button class="primary" @click=${() => location.reload()}>Reconnect</button>` : nothing}
        ${this.pane && this.closable
          ? html`<button class=${code === CloseCode.ConnectionLimit ? '' : 'primary'} @click=${() => this.dispatchEvent(new CustomEvent(CLOSE_PANE_EVENT, { bubbles: true }))}>
              Close this pane
            </button>`
          : html`<button class=${code === CloseCode.ConnectionLimit ? '' : 'primary'} @click=${() => router.toList()}>Back to sessions</button>`}
      </div>
    </div>`;
  }

  private renderLoadError(what: TabViewMode) {
    return html`<div class="overlay">
      <div class="card" role="alert">
        <h2>Could not load the ${what}</h2>
        <p>${this.loadError}</p>
        <p>pocketmux may have been updated; reloading fetches the new version.</p>
        <button class="primary" @click=${() => location.reload()}>Reload</button>
      </div>
    </div>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-terminal-view': TerminalView;
  }
}
