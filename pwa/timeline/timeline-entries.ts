import { router } from '../core/router.js';
import { html, nothing } from 'lit';
import { unsafeHTML } from 'lit/directives/unsafe-html.js';
import type {
  AssistantTextEntry,
  InterruptEntry,
  NoticeEntry,
  PromptEntry,
  ThinkingEntry,
  TimelineEntry,
  ToolCallEntry,
} from '../../protocol/timeline.js';
import { shortTime } from '../core/time.js';
import { renderMarkdown } from './markdown.js';

function inputText(entry: ToolCallEntry): string {
  const input = entry.input as Record<string, unknown> | null;
  // A shell command reads best as itself; anything else as its fields.
  if (entry.name === 'Bash' && input && typeof input.command === 'string') return input.command;
  if (input === undefined || input === null) return '';
  return JSON.stringify(input, null, 2);
}

/** Each answer's Markdown, made once: entries are replaced, never changed, when they change. */
const rendered = new WeakMap<AssistantTextEntry, ReturnType<typeof unsafeHTML>>();

function markdownOf(e: AssistantTextEntry) {
  let html = rendered.get(e);
  if (!html) {
    html = unsafeHTML(renderMarkdown(e.text));
    rendered.set(e, html);
  }
  return html;
}

function characters(n: number): string {
  return n >= 1000 ? `${(n / 1000).toFixed(1)}k characters` : `${n} characters`;
}

/** Claude's tools that write a file, whose call can lead to that file in the review. */
const FILE_TOOLS: ReadonlySet<string> = new Set(['Edit', 'MultiEdit', 'Write', 'NotebookEdit']);

/** The file a tool call wrote, when it is one of those: its `file_path` (or a notebook's path). */
export function writtenFile(e: ToolCallEntry): string | null {
  if (!FILE_TOOLS.has(e.name) || typeof e.input !== 'object' || e.input === null) return null;
  const input = e.input as { file_path?: unknown; notebook_path?: unknown };
  const path = typeof input.file_path === 'string' ? input.file_path : input.notebook_path;
  return typeof path === 'string' && path !== '' ? path : null;
}

/** A link into the review that moves within the app, and still opens in a new tab if asked. */
function reviewLink(href: string) {
  return html`<a
    class="review-file"
    href=${href}
    @click=${(ev: MouseEvent) => {
      if (ev.ctrlKey || ev.metaKey || ev.shiftKey || ev.button !== 0) return;
      ev.preventDefault();
      router.go(href);
    }}
    >Review the file</a
  >`;
}

/** One entry of the conversation, drawn by its kind; `fileLink` is where a file a tool wrote is reviewed. */
export function timelineEntry(e: TimelineEntry, fileLink?: (path: string) => string, agent = 'Claude') {
  switch (e.kind) {
    case 'prompt':
      return renderPrompt(e);
    case 'assistant-text':
      return renderAssistant(e, agent);
    case 'tool-call':
      return renderTool(e, fileLink);
    case 'thinking':
      return renderThinking(e);
    case 'interrupt':
      return renderInterrupt(e);
    case 'notice':
      return renderNotice(e);
  }
}

function renderPrompt(e: PromptEntry) {
  return html`<div class="prompt">
    <p class="text"><span class="visually-hidden">You: </span>${e.text}${e.truncated ? html`<span class="cut"> … (shortened)</span>` : nothing}</p>
    <time datetime=${e.at}>${shortTime(e.at)}</time>
  </div>`;
}

function renderAssistant(e: AssistantTextEntry, agent: string) {
  return html`<div class="assistant">
    <span class="visually-hidden">${agent}: </span>
    <div class="md">${markdownOf(e)}</div>
    ${e.truncated ? html`<div class="cut">… (shortened; the terminal has it all)</div>` : nothing}
    ${e.aborted ? html`<div class="cut">Stopped while writing.</div>` : nothing}
  </div>`;
}

function renderTool(e: ToolCallEntry, fileLink?: (path: string) => string) {
  const r = e.result;
  const mark = !r
    ? html`<span class="mark running" role="img" aria-label="running"></span>`
    : r.status === 'ok'
      ? html`<span class="mark ok" role="img" aria-label="done">✓</span>`
      : html`<span class="mark error" role="img" aria-label="failed">!</span>`;
  const input = inputText(e);
  const file = fileLink ? writtenFile(e) : null;
  return html`<details class="tool">
    <summary>
      ${mark}
      <span class="tool-name">${e.name}</span>
      <span class="tool-summary">${e.summary}</span>
    </summary>
    <div class="body">
      ${input ? html`<span class="label">${e.name === 'Bash' ? 'Command' : 'Input'}</span><pre>${input}</pre>` : nothing}
      ${r
        ? html`<span class="label">${r.status === 'ok' ? 'Result' : 'Error'}</span>
            <pre class=${r.status === 'error' ? 'error' : ''}>${r.text || '(no output)'}${r.truncated ? '\n…' : ''}</pre>
            ${r.truncated ? html`<span class="cut">Only the start of the result is shown; the terminal has it all.</span>` : nothing}`
        : html`<span class="meta">Running, or waiting for your answer in the terminal.</span>`}
      ${file && fileLink ? reviewLink(fileLink(file)) : nothing}
    </div>
  </details>`;
}

function renderThinking(e: ThinkingEntry) {
  if (e.redacted || e.length === 0) return html`<div class="meta">Claude thought (not shown by the API).</div>`;
  return html`<details class="thinking">
    <summary>Thinking · ${characters(e.length)}</summary>
    <div class="body"><p class="text">${e.firstLine}</p></div>
  </details>`;
}

function renderInterrupt(e: InterruptEntry) {
  return html`<div class="marker" role="note">${e.forToolUse ? 'Tool call stopped by you' : 'Interrupted by you'}</div>`;
}

function renderNotice(e: NoticeEntry) {
  return html`<div class="notice ${e.level}" role="note">${e.text}</div>`;
}
