import { html, LitElement, nothing, type PropertyValues } from 'lit';
import { customElement, property, state } from 'lit/decorators.js';
import { repeat } from 'lit/directives/repeat.js';
import {
  CHANGES_LIMITS,
  type ChangeScope,
  type ChangesView,
  ChangesViewSchema,
  changesSummary,
  type DiffLine,
  type FileChange,
  type FileDiff,
  FileDiffSchema,
  type FileView,
  FileViewSchema,
} from '../../protocol/changes.js';
import { COMMIT_MESSAGE_MAX } from '../../protocol/limits.js';
import { safeParse } from '../../protocol/safe-parse.js';
import { visibleLines, visibleText } from '../../protocol/safe-text.js';
import type { TabStatus } from '../../protocol/status.js';
import { byteSize } from '../core/time.js';
import { commitChanges, fileChanges, readFile, revertChange, sessionChanges, undoRevert } from './changes-api.js';
import '../ui/confirm-bar.js';
import { addToDraft } from '../core/composer-drafts.js';
import { router, tabViewPath } from '../core/router.js';
import { arrowIcon, backIcon, closeIcon } from '../ui/icons.js';
import { controls, spinner } from '../ui/styles.js';
import { changesStyles } from './changes-styles.js';
import { type DiffRow, diffRows, type SideRow, sideBySide } from './diff-rows.js';
import { highlightLine, languageOf, overlay, type TokenKind } from './highlight.js';
import { quoteLabel, quoteLines } from './quote.js';

const SCOPES: readonly { scope: ChangeScope; label: string }[] = [
  { scope: 'turn', label: 'This turn' },
  { scope: 'session', label: 'Session' },
  { scope: 'head', label: 'HEAD' },
];

const KIND_LETTER: Readonly<Record<FileChange['kind'], string>> = { added: 'A', deleted: 'D', modified: 'M', renamed: 'R', copied: 'C', 'type-changed': 'T' };
const KIND_WORD: Readonly<Record<FileChange['kind'], string>> = {
  added: 'added',
  deleted: 'deleted',
  modified: 'modified',
  renamed: 'renamed',
  copied: 'copied',
  'type-changed': 'type changed',
};

/** Whether long lines wrap in a diff, kept on this device. */
const WRAP_KEY = 'pocketmux.changes.wrap';
/** Whether a wide diff shows its two sides next to each other, kept on this device. */
const SIDE_KEY = 'pocketmux.changes.side-by-side';
/** The view's width from which the two sides fit next to each other. */
const SIDE_BY_SIDE_MIN_PX = 900;

/** A horizontal swipe this long (CSS px), mostly sideways, moves to the next or previous file. */
const SWIPE_PX = 70;

function splitPath(path: string): { dir: string; base: string } {
  const at = path.lastIndexOf('/');
  return at < 0 ? { dir: '', base: path } : { dir: path.slice(0, at + 1), base: path.slice(at + 1) };
}

function clock(at: number): string {
  return new Date(at).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/**
 * What a session changed, for review on a phone: the changed files of this turn, this session
 * or against HEAD, with lines added and removed; a tap opens a file's diff, numbered on both
 * sides, changed words marked, unchanged runs folded, wrapping on or off, and the next file a
 * swipe (or ←/→) away. A chunk of its own, loaded when the view first shows.
 */
@customElement('pm-changes-view')
export class ChangesViewElement extends LitElement {
  static override styles = [controls, spinner, changesStyles];

  /** The session's key: a tab's id or an outside session's. */
  @property() sessionKey = '';
  /** A file to open once the list is there (`?file=` from a tool call in the timeline): absolute, or relative to the repository. */
  @property() file = '';
  /** Its Claude status: a turn that ends brings the list up to date. */
  @property({ attribute: false }) status: TabStatus | undefined;

  @state() private scope: ChangeScope = 'turn';
  @state() private view: ChangesView | null = null;
  @state() private loading = false;
  @state() private error = '';
  /** The file open, by its path now; null shows the list. */
  @state() private open: string | null = null;
  @state() private diff: FileDiff | null = null;
  @state() private diffRows: DiffRow[] = [];
  @state() private diffError = '';
  @state() private diffLoading = false;
  @state() private wrap = localStorage.getItem(WRAP_KEY) !== 'off';
  /** Lines picked in the open diff, by their rows' indexes: the first tapped and the last. */
  @state() private pick: { anchor: number; end: number } | null = null;
  /** Quotes added to the session's prompt from this view, and what was last said of it. */
  @state() private gathered = 0;
  @state() private askNote = '';
  /** Asking whether to put the open file back; a revert done, which Undo takes back while the view is open. */
  @state() private confirmRevert = false;
  @state() private reverted: { path: string; undo: string } | null = null;
  @state() private revertBusy = false;
  @state() private revertError = '';
  /** The commit being written: its message and the files it takes (all listed, at first). */
  @state() private committing: { message: string; paths: Set<string> } | null = null;
  @state() private commitBusy = false;
  @state() private commitError = '';
  @state() private committed = '';
  /** The open file shown whole, as it is now, instead of its diff; how many of its lines are drawn. */
  @state() private whole: { view: FileView; rows: DiffRow[] } | null = null;
  @state() private wholeShown = CHANGES_LIMITS.diffLines;
  @state() private wholeError = '';

  /** The open file's language for its colours, and each drawn line's cuts (rows are made anew for each diff). */
  private language: string | null = null;
  private segments = new WeakMap<DiffRow, { text: string; a: boolean; b: TokenKind | undefined }[]>();
  /** Wide enough for the two sides of a diff next to each other, and whether they are wanted so. */
  @state() private wide = false;
  @state() private sideBySideOn = localStorage.getItem(SIDE_KEY) !== 'off';
  private readonly resize = new ResizeObserver((entries) => {
    const width = entries[0]?.contentRect.width ?? 0;
    this.wide = width >= SIDE_BY_SIDE_MIN_PX;
  });
  private listRequest: AbortController | null = null;
  private fileRequest: AbortController | null = null;
  private touchStart: { x: number; y: number } | null = null;

  override connectedCallback(): void {
    super.connectedCallback();
    this.addEventListener('keydown', this.onKey);
    this.resize.observe(this);
  }

  override disconnectedCallback(): void {
    super.disconnectedCallback();
    this.removeEventListener('keydown', this.onKey);
    this.resize.disconnect();
    this.listRequest?.abort();
    this.fileRequest?.abort();
  }

  protected override willUpdate(changed: PropertyValues<this>): void {
    if (changed.has('sessionKey')) {
      this.open = null;
      this.view = null;
      void this.load();
      return;
    }
    // A turn that ended (or began) changes what there is to review.
    const before = changed.get('status') as TabStatus | undefined;
    if (changed.has('status') && before && this.status && before.state !== this.status.state && this.status.state !== 'needs-input') void this.refresh();
  }

  /** Loads the list, and the open file's diff again. */
  private async refresh(): Promise<void> {
    await this.load();
    if (this.open !== null) await this.openFile(this.open);
  }

  private async load(): Promise<void> {
    this.listRequest?.abort();
    const request = new AbortController();
    this.listRequest = request;
    this.loading = true;
    this.error = '';
    try {
      const parsed = safeParse(ChangesViewSchema, await sessionChanges(this.sessionKey, this.scope, request.signal));
      if (request.signal.aborted) return;
      if (!parsed.success) throw new Error('The agent sent changes this app cannot read. Reload to update the app.');
      this.view = parsed.data;
      // A file no longer changed in this scope: back to the list.
      if (this.open !== null && !parsed.data.files.some((f) => f.path === this.open)) this.closeFile();
      this.openAsked(parsed.data);
    } catch (err) {
      if (request.signal.aborted) return;
      this.error = (err as Error).message;
    } finally {
      if (this.listRequest === request) this.loading = false;
    }
  }

  /**
   * The file the page was opened on, once: its diff when it changed in this scope, else the
   * file itself. A path outside the repository is left alone (the agent would refuse it).
   */
  private openAsked(view: ChangesView): void {
    const asked = this.file;
    if (asked === '' || this.open !== null) return;
    this.file = '';
    const root = view.root;
    const relative = root !== undefined && asked.startsWith(`${root}/`) ? asked.slice(root.length + 1) : asked.startsWith('/') ? null : asked;
    if (relative === null) return;
    if (view.files.some((f) => f.path === relative)) {
      void this.openFile(relative);
      return;
    }
    this.open = relative;
    void this.showWhole();
  }

  private setScope(scope: ChangeScope): void {
    if (scope === this.scope) return;
    this.scope = scope;
    this.committing = null;
    this.committed = '';
    this.closeFile();
    this.view = null;
    void this.load();
  }

  private async openFile(path: string, from = 0): Promise<void> {
    this.fileRequest?.abort();
    const request = new AbortController();
    this.fileRequest = request;
    if (from === 0) {
      // Another file: its name never shows over the last one's lines.
      if (path !== this.open) {
        this.diff = null;
        this.diffRows = [];
        this.pick = null;
        this.whole = null;
        this.wholeError = '';
      }
      this.open = path;
      this.diffError = '';
    }
    this.diffLoading = true;
    try {
      const parsed = safeParse(FileDiffSchema, await fileChanges(this.sessionKey, this.scope, path, from, request.signal));
      if (request.signal.aborted) return;
      if (!parsed.success) throw new Error('The agent sent a diff this app cannot read. Reload to update the app.');
      const more = parsed.data;
      // A later page adds its hunks to those shown; a hunk cut between pages goes on in the next.
      const hunks = from === 0 || !this.diff ? more.hunks : [...this.diff.hunks, ...more.hunks];
      this.diff = { ...more, hunks };
      this.language = languageOf(more.change.path);
      this.diffRows = diffRows(hunks);
      if (from === 0) this.renderRoot.querySelector('.diff-scroller')?.scrollTo({ top: 0 });
    } catch (err) {
      if (request.signal.aborted) return;
      this.diffError = (err as Error).message;
    } finally {
      if (this.fileRequest === request) this.diffLoading = false;
    }
  }

  private closeFile(): void {
    this.fileRequest?.abort();
    this.pick = null;
    this.whole = null;
    this.wholeError = '';
    this.confirmRevert = false;
    this.open = null;
    this.diff = null;
    this.diffRows = [];
    this.diffError = '';
    this.diffLoading = false;
  }

  /** The file `step` places from the open one in the list, if any. */
  private neighbour(step: number): FileChange | undefined {
    const files = this.view?.files ?? [];
    const at = files.findIndex((f) => f.path === this.open);
    return at < 0 ? undefined : files[at + step];
  }

  private go(step: number): void {
    const next = this.neighbour(step);
    if (next) void this.openFile(next.path);
  }

  private readonly onKey = (e: KeyboardEvent): void => {
    if (this.open === null || e.altKey || e.ctrlKey || e.metaKey) return;
    if (e.key === 'ArrowRight' || e.key === 'j') this.go(1);
    else if (e.key === 'ArrowLeft' || e.key === 'k') this.go(-1);
    else if (e.key === 'Escape') this.closeFile();
    else return;
    e.preventDefault();
  };

  private onTouchStart(e: TouchEvent): void {
    const t = e.touches[0];
    this.touchStart = e.touches.length === 1 && t ? { x: t.clientX, y: t.clientY } : null;
  }

  private onTouchEnd(e: TouchEvent): void {
    const start = this.touchStart;
    const t = e.changedTouches[0];
    this.touchStart = null;
    if (!start || !t) return;
    const dx = t.clientX - start.x;
    const dy = t.clientY - start.y;
    // A lines scrolled sideways (wrap off) is not a swipe to another file.
    const scroller = this.renderRoot.querySelector<HTMLElement>('.diff-scroller');
    if (!this.wrap && scroller && scroller.scrollWidth > scroller.clientWidth) return;
    if (Math.abs(dx) >= SWIPE_PX && Math.abs(dx) > 2 * Math.abs(dy)) this.go(dx < 0 ? 1 : -1);
  }

  /** A tap on a line's numbers: the first picks it, the next picks every line up to it, the one after starts again. */
  private onGutter(e: Event): void {
    const cell = (e.target as Element).closest('td.num, td.op');
    const holder = cell?.closest<HTMLElement>('[data-i]');
    const index = Number(holder?.dataset.i);
    if (!cell || !Number.isInteger(index) || this.shownRows[index]?.kind !== 'line') return;
    const pick = this.pick;
    this.pick = pick && pick.anchor === pick.end && index !== pick.anchor ? { anchor: pick.anchor, end: index } : { anchor: index, end: index };
    this.askNote = '';
  }

  /** The rows on screen: the whole file's, or the diff's. */
  private get shownRows(): DiffRow[] {
    return this.whole?.rows ?? this.diffRows;
  }

  /** The picked lines, in order, folds left out. */
  private get pickedLines(): DiffLine[] {
    const pick = this.pick;
    if (!pick) return [];
    const [from, to] = pick.anchor <= pick.end ? [pick.anchor, pick.end] : [pick.end, pick.anchor];
    return this.shownRows.slice(from, to + 1).flatMap((r) => (r.kind === 'line' ? [r.line] : []));
  }

  /** The picked lines go into the session's prompt, quoted; several gather there before it is written. */
  private askClaude(): void {
    const lines = this.pickedLines;
    const path = this.whole?.view.path ?? this.diff?.change.path;
    if (lines.length === 0 || path === undefined) return;
    if (!addToDraft(this.sessionKey, quoteLines(path, lines))) {
      this.askNote = 'Your prompt is full: send it, then pick more lines.';
      return;
    }
    this.gathered++;
    this.pick = null;
    this.askNote = '';
  }

  private writePrompt(): void {
    this.gathered = 0;
    router.go(tabViewPath(this.sessionKey, 'timeline'));
  }

  private async revert(): Promise<void> {
    const path = this.open;
    const scope = this.scope;
    if (path === null || scope === 'head' || this.revertBusy) return;
    this.revertBusy = true;
    this.revertError = '';
    try {
      const done = await revertChange(this.sessionKey, path, scope);
      this.reverted = done.undo !== undefined ? { path, undo: done.undo } : null;
      this.closeFile();
      await this.load();
    } catch (err) {
      this.revertError = (err as Error).message;
    } finally {
      this.revertBusy = false;
      this.confirmRevert = false;
    }
  }

  private async undoRevert(): Promise<void> {
    const done = this.reverted;
    if (!done || this.revertBusy) return;
    this.revertBusy = true;
    this.revertError = '';
    try {
      await undoRevert(this.sessionKey, done.undo);
      this.reverted = null;
      await this.load();
    } catch (err) {
      this.revertError = (err as Error).message;
    } finally {
      this.revertBusy = false;
    }
  }

  private toggleWhole(): void {
    this.pick = null;
    if (this.whole) this.whole = null;
    else void this.showWhole();
  }

  /** The open file, whole, as it is now: read-only, numbered and coloured; lines pick as in a diff. */
  private async showWhole(): Promise<void> {
    const path = this.open;
    if (path === null) return;
    this.wholeError = '';
    try {
      const parsed = safeParse(FileViewSchema, await readFile(this.sessionKey, path));
      if (!parsed.success) throw new Error('The agent sent a file this app cannot read. Reload to update the app.');
      if (this.open !== path) return;
      const view = parsed.data;
      const lines = view.text === null ? [] : view.text.replace(/\n$/, '').split('\n');
      const rows: DiffRow[] = lines.map((text, i) => {
        const line: DiffLine = { op: ' ', text: text.slice(0, CHANGES_LIMITS.lineChars), new: i + 1 };
        if (text.length > CHANGES_LIMITS.lineChars) line.cut = true;
        return { kind: 'line', line };
      });
      this.pick = null;
      this.wholeShown = CHANGES_LIMITS.diffLines;
      this.whole = { view, rows };
    } catch (err) {
      this.wholeError = (err as Error).message;
    }
  }

  private startCommit(): void {
    this.committing = { message: '', paths: new Set(this.view?.files.map((f) => f.path) ?? []) };
    this.commitError = '';
    this.committed = '';
  }

  private toggleCommitted(path: string, on: boolean): void {
    const c = this.committing;
    if (!c) return;
    const paths = new Set(c.paths);
    if (on) paths.add(path);
    else paths.delete(path);
    this.committing = { ...c, paths };
  }

  private async commit(): Promise<void> {
    const c = this.committing;
    if (!c || this.commitBusy || c.message.trim() === '' || c.paths.size === 0) return;
    this.commitBusy = true;
    this.commitError = '';
    try {
      const done = await commitChanges(this.sessionKey, [...c.paths], c.message);
      this.committing = null;
      this.committed = `Committed ${done.files} ${done.files === 1 ? 'file' : 'files'} as ${done.commit.slice(0, 8)}.`;
      await this.load();
    } catch (err) {
      this.commitError = (err as Error).message;
    } finally {
      this.commitBusy = false;
    }
  }

  private renderCommit(view: ChangesView) {
    const c = this.committing;
    if (!c) {
      return html`<div class="commit-row">
        <button type="button" @click=${() => this.startCommit()}>Commit\u2026</button>
        ${this.committed ? html`<span class="muted" role="status">${this.committed}</span>` : nothing}
      </div>`;
    }
    return html`<form
      class="commit"
      aria-label="Commit"
      @submit=${(e: Event) => {
        e.preventDefault();
        void this.commit();
      }}
    >
      <label for="message">Commit message</label>
      <textarea
        id="message"
        rows="3"
        maxlength=${COMMIT_MESSAGE_MAX}
        .value=${c.message}
        ?disabled=${this.commitBusy}
        @input=${(e: Event) => {
          if (this.committing) this.committing = { ...this.committing, message: (e.target as HTMLTextAreaElement).value };
        }}
      ></textarea>
      <fieldset>
        <legend>Files to commit (${c.paths.size} of ${view.files.length})</legend>
        ${view.files.map(
          (f) => html`<label class="pick-file"
            ><input type="checkbox" .checked=${c.paths.has(f.path)} ?disabled=${this.commitBusy} @change=${(e: Event) => this.toggleCommitted(f.path, (e.target as HTMLInputElement).checked)} /><bdi
              >${visibleText(f.path)}</bdi
            ></label
          >`,
        )}
      </fieldset>
      ${this.commitError ? html`<p class="error" role="alert">${this.commitError}</p>` : nothing}
      <div class="buttons">
        <button type="button" ?disabled=${this.commitBusy} @click=${() => (this.committing = null)}>Cancel</button>
        <button type="submit" class="primary" ?disabled=${this.commitBusy || c.message.trim() === '' || c.paths.size === 0}>
          ${this.commitBusy ? html`<span class="spinner" aria-hidden="true"></span>` : nothing}Commit
        </button>
      </div>
    </form>`;
  }

  private toggleSide(): void {
    this.sideBySideOn = !this.sideBySideOn;
    localStorage.setItem(SIDE_KEY, this.sideBySideOn ? 'on' : 'off');
  }

  private toggleWrap(): void {
    this.wrap = !this.wrap;
    localStorage.setItem(WRAP_KEY, this.wrap ? 'on' : 'off');
  }

  override render() {
    return html`
      <div class="scopes" role="group" aria-label="Changes since">
        ${SCOPES.map(({ scope, label }) => html`<button type="button" aria-pressed=${this.scope === scope} @click=${() => this.setScope(scope)}>${label}</button>`)}
      </div>
      ${this.open === null ? this.renderList() : this.renderFile()}
      ${this.renderAskBar()}
    `;
  }

  /** What was picked, what the prompt gathered, and a revert that can be taken back. */
  private renderAskBar() {
    const done = this.reverted;
    const undo = done
      ? html`<div class="ask" role="region" aria-label="Reverted">
          <span class="picked" role="status">Put back: <bdi>${visibleText(done.path)}</bdi></span>
          <button type="button" ?disabled=${this.revertBusy} @click=${() => void this.undoRevert()}>Undo</button>
          <button type="button" class="icon ghost" aria-label="Keep it reverted" @click=${() => (this.reverted = null)}>${closeIcon()}</button>
          ${this.revertError ? html`<span class="error" role="alert">${this.revertError}</span>` : nothing}
        </div>`
      : this.revertError
        ? html`<div class="ask"><span class="error" role="alert">${this.revertError}</span></div>`
        : nothing;
    return html`${undo}${this.renderAsk()}`;
  }

  private renderAsk() {
    const lines = this.pickedLines;
    const path = this.whole?.view.path ?? this.diff?.change.path;
    if (lines.length > 0 && path !== undefined) {
      return html`<div class="ask" role="region" aria-label="Picked lines">
        <span class="picked"><bdi>${visibleText(quoteLabel(path, lines))}</bdi></span>
        <button type="button" class="primary" @click=${() => this.askClaude()}>Ask Claude</button>
        <button type="button" class="icon ghost" aria-label="Unpick the lines" @click=${() => (this.pick = null)}>${closeIcon()}</button>
        ${this.askNote ? html`<span class="error" role="alert">${this.askNote}</span>` : nothing}
      </div>`;
    }
    if (this.gathered === 0) return nothing;
    return html`<div class="ask" role="region" aria-label="Your prompt">
      <span class="picked" role="status">${this.gathered === 1 ? 'A quote is' : `${this.gathered} quotes are`} in your prompt</span>
      <button type="button" class="primary" @click=${() => this.writePrompt()}>Write the prompt</button>
    </div>`;
  }

  private renderSummary(view: ChangesView) {
    const since = view.since !== undefined ? `since ${clock(view.since)}` : view.head !== undefined ? `against ${view.head.slice(0, 8)}` : '';
    return html`<p class="summary" role="status">
      <span class="total">${changesSummary(view.total)}</span>
      ${since ? html`<span class="muted">${since}</span>` : nothing}
    </p>`;
  }

  private renderList() {
    const view = this.view;
    if (this.error) return html`<div class="note error" role="alert">${this.error} <button type="button" @click=${() => void this.load()}>Try again</button></div>`;
    if (!view) return html`<div class="note" role="status"><span class="spinner" aria-hidden="true"></span> Reading the changes…</div>`;
    if (view.source === 'none') return html`<div class="note" role="status">Cannot tell what changed: ${visibleText(view.reason ?? 'unknown')}.</div>`;
    return html`
      ${this.renderSummary(view)}
      <ul class="files" aria-label="Changed files" aria-busy=${this.loading}>
        ${repeat(
          view.files,
          (f) => f.path,
          (f) => this.renderFileRow(f),
        )}
      </ul>
      ${view.source === 'git' && (view.files.length > 0 || this.committed) ? this.renderCommit(view) : nothing}
      ${view.truncated ? html`<p class="note muted">${view.total.files - view.files.length} more files changed; the list shows the first ${view.files.length}.</p>` : nothing}
      ${view.unrecorded.length > 0 ? html`<p class="note muted">Not recorded, over 8 MB: ${view.unrecorded.map((p) => visibleText(p)).join(', ')}</p>` : nothing}
      ${view.elsewhere ? html`<p class="note muted">And ${view.elsewhere === 1 ? 'a file' : `${view.elsewhere} files`} outside this directory, not shown.</p>` : nothing}
      ${view.source === 'transcript'
        ? html`<p class="note muted" role="note">Not a git repository: these are Claude’s own edits (Edit, Write), from the conversation. What its commands changed is not seen.</p>`
        : nothing}
    `;
  }

  private renderCounts(f: FileChange) {
    if (f.binary) return html`<span class="counts muted">binary</span>`;
    if (f.commits) return html`<span class="counts muted">submodule</span>`;
    return html`<span class="counts"><span class="plus">+${f.added ?? 0}</span> <span class="minus">\u2212${f.removed ?? 0}</span></span>`;
  }

  private renderFileRow(f: FileChange) {
    const { dir, base } = splitPath(visibleText(f.path));
    return html`<li>
      <button type="button" class="file" @click=${() => void this.openFile(f.path)}>
        <span class="kind ${f.kind}" title=${KIND_WORD[f.kind]}>${KIND_LETTER[f.kind]}</span>
        <span class="path"><bdi><span class="base">${base}</span>${dir ? html` <span class="dir">${dir}</span>` : nothing}</bdi>
          ${f.from !== undefined ? html`<span class="from">from <bdi>${visibleText(f.from)}</bdi></span>` : nothing}</span>
        ${this.renderCounts(f)}
        <span class="visually-hidden">${KIND_WORD[f.kind]}</span>
      </button>
    </li>`;
  }

  private renderFile() {
    const change = this.diff?.change ?? this.view?.files.find((f) => f.path === this.open);
    const prev = this.neighbour(-1);
    const next = this.neighbour(1);
    const { dir, base } = splitPath(visibleText(this.open ?? ''));
    return html`
      <div class="file-bar">
        <button type="button" class="icon ghost" aria-label="All changed files" @click=${() => this.closeFile()}>${backIcon()}</button>
        <span class="file-name"><bdi><span class="base">${base}</span>${dir ? html` <span class="dir">${dir}</span>` : nothing}</bdi></span>
        ${this.scope !== 'head' && this.view !== null && this.view.source !== 'none' && change !== undefined && !this.view.unrecorded.includes(change.path)
          ? html`<button type="button" class="revert" ?disabled=${this.revertBusy} @click=${() => (this.confirmRevert = true)}>Revert</button>`
          : nothing}
        ${change !== undefined && change.kind !== 'deleted' && change.after !== 'submodule'
          ? html`<button type="button" class="whole" aria-pressed=${this.whole !== null} title="The whole file, as it is now" @click=${() => this.toggleWhole()}>File</button>`
          : nothing}
        ${this.wide && !this.whole
          ? html`<button type="button" class="wrap" aria-pressed=${this.sideBySideOn} title="The old and the new side next to each other" @click=${() => this.toggleSide()}>Side by side</button>`
          : nothing}
        <button type="button" class="wrap" aria-pressed=${this.wrap} title="Wrap long lines" @click=${() => this.toggleWrap()}>Wrap</button>
        <button type="button" class="icon ghost" aria-label="Previous file" ?disabled=${!prev} @click=${() => this.go(-1)}>${arrowIcon('left')}</button>
        <button type="button" class="icon ghost" aria-label="Next file" ?disabled=${!next} @click=${() => this.go(1)}>${arrowIcon('right')}</button>
      </div>
      ${this.confirmRevert
        ? html`<pm-confirm-bar
            class="confirm"
            message=${`Put ${visibleText(base)} back as it was at the start of ${this.scope === 'turn' ? 'this turn' : 'this session'}?`}
            action="Revert"
            ?busy=${this.revertBusy}
            @pm-confirm=${() => void this.revert()}
            @pm-cancel=${() => (this.confirmRevert = false)}
          ></pm-confirm-bar>`
        : nothing}
      <div class="diff-scroller ${this.wrap ? 'wrap' : ''}" tabindex="0" @touchstart=${(e: TouchEvent) => this.onTouchStart(e)} @touchend=${(e: TouchEvent) => this.onTouchEnd(e)}>
        ${change ? this.renderChangeNote(change) : nothing}
        ${this.diffError ? html`<div class="note error" role="alert">${this.diffError}</div>` : nothing}
        ${this.wholeError ? html`<div class="note error" role="alert">${this.wholeError}</div>` : nothing}
        ${this.whole
          ? this.renderWhole(this.whole.view, this.whole.rows)
          : this.diff
            ? this.renderDiff(this.diff)
            : this.diffError
              ? nothing
              : html`<div class="note" role="status"><span class="spinner" aria-hidden="true"></span> Reading the diff…</div>`}
      </div>
    `;
  }

  private renderChangeNote(f: FileChange) {
    const parts: string[] = [KIND_WORD[f.kind]];
    if (f.from !== undefined) parts.push(`from ${visibleText(f.from)}`);
    if (f.before !== undefined && f.after !== undefined && f.before !== f.after) parts.push(`${f.before} \u2192 ${f.after}`);
    if (f.commits) parts.push(`commit ${f.commits.before?.slice(0, 10) ?? 'none'} \u2192 ${f.commits.after?.slice(0, 10) ?? 'none'}`);
    if (f.binary) parts.push('binary: no lines to show');
    return html`<p class="change-note">${parts.join(' \u00b7 ')} ${this.renderCounts(f)}</p>`;
  }

  private renderWhole(view: FileView, rows: DiffRow[]) {
    if (view.text === null) return html`<p class="note">A binary file of ${byteSize(view.size)}: not shown.</p>`;
    const shown = rows.slice(0, this.wholeShown);
    return html`
      <table class="diff whole" role="table" aria-label="File" @click=${(e: Event) => this.onGutter(e)}>
        <tbody>
          ${shown.map((row, i) => this.renderRow(row, i))}
        </tbody>
      </table>
      ${rows.length > shown.length
        ? html`<div class="more"><button type="button" @click=${() => (this.wholeShown += CHANGES_LIMITS.diffLines)}>Show ${Math.min(rows.length - shown.length, CHANGES_LIMITS.diffLines)} more lines</button></div>`
        : nothing}
      ${view.truncated ? html`<p class="note muted">The file is ${byteSize(view.size)}: its first ${byteSize(CHANGES_LIMITS.fileBytes)} are shown.</p>` : nothing}
    `;
  }

  private renderDiff(diff: FileDiff) {
    const side = this.wide && this.sideBySideOn;
    return html`
      <table class="diff ${side ? 'side' : ''}" role="table" aria-label="Diff" @click=${(e: Event) => this.onGutter(e)}>
        <tbody>
          ${side ? sideBySide(this.diffRows).map((row) => this.renderSideRow(row)) : this.diffRows.map((row, i) => this.renderRow(row, i))}
        </tbody>
      </table>
      ${diff.next !== undefined
        ? html`<div class="more"><button type="button" ?disabled=${this.diffLoading} @click=${() => void this.openFile(this.open as string, diff.next)}>Show ${Math.min(diff.lines - (diff.next ?? 0), 4000)} more lines</button></div>`
        : nothing}
    `;
  }

  /** A line cut where its words changed and where its syntax changes colour, once per diff shown. */
  private segmentsOf(row: Extract<DiffRow, { kind: 'line' }>): { text: string; a: boolean; b: TokenKind | undefined }[] {
    let cut = this.segments.get(row);
    if (!cut) {
      const text = row.line.text;
      const marks = (row.spans ?? [{ text, changed: false }]).map((s) => ({ text: s.text, value: s.changed }));
      const tokens = highlightLine(text, this.language).map((t) => ({ text: t.text, value: t.kind }));
      cut = overlay(text, marks, tokens);
      this.segments.set(row, cut);
    }
    return cut;
  }

  private isPicked(index: number): boolean {
    const pick = this.pick;
    return pick !== null && index >= Math.min(pick.anchor, pick.end) && index <= Math.max(pick.anchor, pick.end);
  }

  /** A line's text, its changed words marked and its syntax coloured; tabs stay, other controls show as escapes. */
  private lineText(row: Extract<DiffRow, { kind: 'line' }>) {
    return this.segmentsOf(row).map((s) => {
      const shown = visibleLines(s.text);
      if (s.a) return html`<mark class=${s.b ?? ''}>${shown}</mark>`;
      return s.b ? html`<span class=${s.b}>${shown}</span>` : shown;
    });
  }

  private renderSideRow(row: SideRow) {
    if (row.kind === 'fold') {
      return html`<tr class="fold"><td class="num">\u22ef</td><td class="code" colspan="3">${row.lines} unchanged ${row.lines === 1 ? 'line' : 'lines'}${row.section ? html` <span class="section">${visibleText(row.section)}</span>` : nothing}</td></tr>`;
    }
    const half = (index: number | null, side: 'old' | 'new') => {
      const found = index === null ? undefined : this.diffRows[index];
      if (index === null || found?.kind !== 'line') return html`<td class="num empty"></td><td class="code empty"></td>`;
      const line = found.line;
      const cls = line.op === '+' ? 'add' : line.op === '-' ? 'del' : 'ctx';
      const picked = this.isPicked(index);
      return html`<td class="num ${cls} ${picked ? 'picked' : ''}" data-i=${index}>${side === 'old' ? (line.old ?? '') : (line.new ?? '')}</td
        ><td class="code ${cls} ${picked ? 'picked' : ''}">${this.lineText(found)}</td>`;
    };
    return html`<tr>${half(row.left, 'old')}${half(row.right, 'new')}</tr>`;
  }

  private renderRow(row: DiffRow, index: number) {
    if (row.kind === 'fold') {
      return html`<tr class="fold"><td class="num" colspan="2">\u22ef</td><td class="code" colspan="2">${row.lines} unchanged ${row.lines === 1 ? 'line' : 'lines'}${row.section ? html` <span class="section">${visibleText(row.section)}</span>` : nothing}</td></tr>`;
    }
    const { line } = row;
    const cls = line.op === '+' ? 'add' : line.op === '-' ? 'del' : 'ctx';
    const text = this.lineText(row);
    return html`<tr class=${cls} data-i=${index} aria-selected=${this.isPicked(index)}>
      <td class="num">${line.old ?? ''}</td><td class="num">${line.new ?? ''}</td>
      <td class="op" aria-hidden="true">${line.op}</td><td class="code">${text}${line.cut ? html`<span class="cut"> \u2026 (line cut)</span>` : nothing}${line.noNewline ? html`<span class="cut"> \u21b5 no newline at end</span>` : nothing}</td>
    </tr>`;
  }
}

declare global {
  interface HTMLElementTagNameMap {
    'pm-changes-view': ChangesViewElement;
  }
}
