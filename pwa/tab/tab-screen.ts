import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import type { PaneTitle, TabView } from '../../protocol/api.js';
import { CloseCode, NO_TERMINAL_REASON } from '../../protocol/close-codes.js';
import type { OutsideSessionView } from '../../protocol/outside.js';
import { parseSessionKey } from '../../protocol/session-key.js';
import type { TabStatus } from '../../protocol/status.js';
import { adoptIcon, backIcon, terminalIcon, timelineIcon } from '../ui/icons.js';
import '../ui/connection-note.js';
import '../terminal/key-bar.js';
import { chip, controls, spinner } from '../ui/styles.js';
import { tabScreenStyles } from './tab-screen-styles.js';
import { FindController } from './find-controller.js';
import { type ScreenLabel, screenLabel } from './screen-label.js';
import { toolButtons, viewSwitch } from './header-controls.js';
import { TextSizeController } from './text-size-controller.js';
import { ModeSwitchController, modeSwitchStyles } from './mode-switch.js';
import { type CardExit, endedCard, loadErrorCard, missingCard } from './closed-cards.js';
import { NO_TERMINAL_TEXT } from './closed-text.js';
import '../ui/status-dot.js';
import { type BarKey, barKeySequence, withCtrl } from '../terminal/keys.js';
import { parsePaneTitle, } from '../core/labels.js';
import type { ConnectionState } from '../core/reconnecting-socket.js';
import { router, type TabViewMode, tabViewPath } from '../core/router.js';
import { canAdopt, describeStatus, hasTimeline } from '../core/tab-status.js';
import { AdoptController } from '../core/adopt-controller.js';
import type { TerminalSession, ViewShortcut } from '../terminal/terminal-session.js';
import type { FindBar } from '../terminal/find-bar.js';
import { TAB_MISSING_EVENT } from '../core/tab-missing.js';
import { FIND_CLOSE_EVENT, FIND_SPACE_EVENT } from '../terminal/find-count.js';
import { historyNote } from '../terminal/history-text.js';
import { SCREEN_NAME_EVENT } from '../terminal/page-title.js';

const COARSE_POINTER = '(pointer: coarse)';

function titleKey(title: PaneTitle | null): string {
  return title ? `${title.command}|${title.path}` : '';
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
export class TabScreen extends LitElement {
  static override styles = [controls, chip, spinner, tabScreenStyles, modeSwitchStyles];

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
  @state() private changesLoaded = false;

  @state() private connection: ConnectionState = { kind: 'connecting' };
  /** The timeline shown here was closed by the agent: it has no tab by this address. */
  @state() private timelineMissing = false;
  @state() private liveTitle: PaneTitle | null = null;
  @state() private loaded = false;
  @state() private loadError = '';
  @state() private ctrl = false;
  /** A phone's coarse pointer: no focus that would pop its keyboard, and the key bar under the terminal. */
  @state() touch = matchMedia(COARSE_POINTER).matches;
  private readonly find = new FindController(this);
  private readonly textSize = new TextSizeController(this);
  private readonly modeSwitch = new ModeSwitchController(this, () => ({ key: this.tabId, statusMode: this.status?.permissionMode ?? null }));

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
    this.addEventListener(FIND_CLOSE_EVENT, () => this.find.close());
    this.addEventListener(TAB_MISSING_EVENT, () => {
      this.timelineMissing = true;
    });
    // The snapshot of the history (in the light DOM) starts below the find bar.
    this.addEventListener(FIND_SPACE_EVENT, (e) => this.style.setProperty('--pm-find-space', `${e.detail}px`));
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
    if (changed.has('tabId') && changed.get('tabId') !== undefined) {
      this.adoption.cancel();
      this.modeSwitch.reset();
    }
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
    return parseSessionKey(this.tabId).kind === 'outside';
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
    if (this.view === 'timeline')
      await this.loadView(
        () => import('../timeline/timeline-view.js'),
        () => (this.timelineLoaded = true),
      );
    else if (this.view === 'changes')
      await this.loadView(
        () => import('../changes/changes-view.js'),
        () => (this.changesLoaded = true),
      );
    else if (!this.outsideHasNoTerminal) await this.start();
  }

  /** Loads a view's own chunk, then marks it loaded, unless the view moved on meanwhile. */
  private async loadView(load: () => Promise<unknown>, loaded: () => void): Promise<void> {
    const generation = ++this.generation;
    this.loadError = '';
    try {
      await load();
    } catch (err) {
      if (generation === this.generation) this.loadError = (err as Error).message;
      return;
    }
    if (generation === this.generation) loaded();
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
    this.find.reset();
    this.textSize.setOpen(false);
    const host = document.createElement('div');
    host.className = 'pm-term-host';
    this.termHost = host;
    this.append(host);
    let mod: typeof import('../terminal/terminal-session.js');
    try {
      mod = await import('../terminal/terminal-session.js');
    } catch (err) {
      if (generation === this.generation) this.loadError = (err as Error).message;
      return;
    }
    if (generation !== this.generation) return;
    this.loaded = true;
    this.session = new mod.TerminalSession({
      tabId: this.tabId,
      host,
      fontSize: this.textSize.fontSize,
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
    this.find.reset();
    this.textSize.setOpen(false);
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
    if (action === 'find') void this.find.show();
    else this.textSize.change(action === 'font-bigger' ? 'bigger' : action === 'font-smaller' ? 'smaller' : 'reset');
  }

  private toggleSize(): void {
    this.textSize.setOpen(!this.textSize.open);
    if (this.textSize.open && this.find.open) this.find.close();
  }

  /** The terminal on screen, for find and the text size; null while none is attached. */
  get terminal(): TerminalSession | null {
    return this.session;
  }

  findOpening(): void {
    this.textSize.setOpen(false);
  }

  async focusFindBar(): Promise<void> {
    await this.renderRoot.querySelector<FindBar>('pm-find-bar')?.focusField();
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

  private get label(): ScreenLabel {
    return screenLabel({
      key: this.tabId,
      isOutside: this.isOutside,
      missing: this.missing,
      outside: this.currentOutside,
      knownTab: this.knownTab,
      knownOutside: this.knownOutside,
      liveTitle: this.liveTitle,
    });
  }

  override render() {
    const label = this.label;
    // A session outside pocketmux is a Claude's or a Codex's, with a conversation to show.
    const claude = this.isOutside ? { kind: this.currentOutside?.agent ?? ('claude' as const) } : this.knownTab;
    const status = claude ? describeStatus(claude, this.status) : null;
    const timeline = this.view !== 'terminal' || hasTimeline(claude, this.status);
    const noTerminal = this.noTerminal;
    const outside = this.currentOutside;
    if (this.missing) return this.renderMissing(label);
    // Offered while the list holds the session and it is between turns; an open confirmation stays.
    const adoptable = this.isOutside && ((this.outside?.key === this.tabId && canAdopt(this.status, this.outside.agent)) || this.adoption.confirming);
    // The mode is switched by keys to a running claude's footer: offered while one runs and says
    // its mode, and only shown where no keys reach it (an outside session started outside tmux).
    const mode = this.status?.claudeRunning ? this.modeSwitch.modeOf(this.status.permissionMode) : null;
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
        ${mode ? (this.outsideHasNoTerminal ? this.modeSwitch.renderMark(mode) : this.modeSwitch.renderButton(mode)) : nothing}
        ${this.view === 'terminal' && !noTerminal ? html`<pm-connection-note label=${this.connectionNote}></pm-connection-note>` : nothing}
        ${this.view === 'terminal' && !noTerminal
          ? toolButtons({
              ready: this.loaded && this.session !== null,
              findOpen: this.find.open,
              sizeOpen: this.textSize.open,
              toggleFind: () => this.find.toggle(),
              toggleSize: () => this.toggleSize(),
            })
          : nothing}
        ${timeline ? viewSwitch(this.view, (view) => this.switchTo(view)) : nothing}
        ${adoptable
          ? this.adoption.renderButton(label.primary, adoptIcon())
          : nothing}
        <slot name="bell"></slot>
      </header>
      ${this.adoption.confirming && outside ? html`<div class="adopt-panel">${this.adoption.renderPanel(outside)}</div>` : nothing}
      ${mode && !this.outsideHasNoTerminal ? this.modeSwitch.renderPanel(mode) : nothing}
      <div class="body">
        <div class="main">${this.view === 'timeline' ? this.renderTimeline() : this.view === 'changes' ? this.renderChanges() : noTerminal ? this.renderNoTerminal() : this.renderTerminal()}</div>
      </div>
    `;
  }

  private get connectionNote(): string {
    const c = this.connection;
    return !this.loaded || c.kind === 'connecting' ? 'Connecting…' : c.kind === 'reconnecting' ? 'Offline' : '';
  }

  private renderTimeline() {
    return html`<div class="stage">
      ${this.timelineLoaded ? html`<pm-timeline-view .tabId=${this.tabId} .status=${this.status} .tab=${this.tab} .outside=${this.outside}></pm-timeline-view>` : nothing}
      ${!this.timelineLoaded && !this.loadError ? html`<div class="loading" role="status">Loading timeline…</div>` : nothing}
      ${this.loadError ? loadErrorCard('timeline', this.loadError) : nothing}
    </div>`;
  }

  private renderChanges() {
    return html`<div class="stage">
      ${this.changesLoaded ? html`<pm-changes-view .sessionKey=${this.tabId} .status=${this.status} .file=${new URLSearchParams(location.search).get('file') ?? ''}></pm-changes-view>` : nothing}
      ${!this.changesLoaded && !this.loadError ? html`<div class="loading" role="status">Loading changes…</div>` : nothing}
      ${this.loadError ? loadErrorCard('changes', this.loadError) : nothing}
    </div>`;
  }

  private renderTerminal() {
    const c = this.connection;
    const ended = c.kind === 'closed-final' ? c.code : c.kind === 'access-lost' ? CloseCode.DeviceRevoked : null;
    return html`
      <div class="stage">
        <slot></slot>
        ${this.find.open && this.session
          ? html`<pm-find-bar .finder=${this.find.historyFinder ?? this.session.finder} .note=${historyNote(this.find.historyState)}></pm-find-bar>`
          : nothing}
        ${this.textSize.open ? this.textSize.renderPanel() : nothing}
        ${!this.loaded && !this.loadError ? html`<div class="loading" role="status">Loading terminal…</div>` : nothing}
        ${c.kind === 'reconnecting'
          ? html`<div class="banner" role="status">
              Reconnecting…
              <button type="button" @click=${() => this.session?.reconnectNow()}>Retry now</button>
            </div>`
          : nothing}
        ${ended === null || this.adoption.busy ? nothing : endedCard(ended, this.cardExit)}
        ${this.loadError ? loadErrorCard('terminal', this.loadError) : nothing}
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

  private get cardExit(): CardExit {
    return { outside: this.isOutside, closesPane: this.pane && this.closable, screen: this };
  }

  private renderMissing(label: ScreenLabel) {
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
          ${missingCard(this.cardExit)}
        </div>
      </div>
    `;
  }

}

declare global {
  interface HTMLElementTagNameMap {
    'pm-terminal-view': TabScreen;
  }
}
