import { css } from 'lit';

/** The review's look: the scope switch, the file list, and a diff made for a narrow screen. */
export const changesStyles = css`
  *,
  *::before,
  *::after {
    box-sizing: border-box;
  }
  :host {
    flex: 1 1 auto;
    min-width: 0;
    min-height: 0;
    display: flex;
    flex-direction: column;
    overflow-y: auto;
    overscroll-behavior: contain;
    background: var(--pm-bg);
  }
  .scopes {
    display: flex;
    gap: 6px;
    padding: 10px calc(12px + var(--pm-safe-right)) 6px calc(12px + var(--pm-safe-left));
  }
  .scopes button {
    flex: 1 1 0;
    font-size: 14px;
    padding: 0 8px;
  }
  .scopes button[aria-pressed='true'] {
    background: var(--pm-surface-3);
    border-color: var(--pm-field-border);
    font-weight: 600;
  }
  .summary {
    margin: 4px calc(14px + var(--pm-safe-right)) 8px calc(14px + var(--pm-safe-left));
    display: flex;
    flex-wrap: wrap;
    gap: 4px 10px;
    font-size: 14px;
  }
  .total {
    font-weight: 600;
  }
  .note {
    margin: 12px 14px;
    font-size: 14px;
    display: flex;
    align-items: center;
    flex-wrap: wrap;
    gap: 8px;
  }
  .files {
    list-style: none;
    margin: 0;
    padding: 0 calc(8px + var(--pm-safe-right)) 24px calc(8px + var(--pm-safe-left));
  }
  button.file {
    width: 100%;
    justify-content: flex-start;
    gap: 10px;
    padding: 6px 8px;
    border: 0;
    border-bottom: 1px solid var(--pm-border);
    border-radius: 0;
    background: transparent;
    text-align: start;
    white-space: normal;
  }
  .kind {
    flex: 0 0 auto;
    width: 22px;
    height: 22px;
    border-radius: 6px;
    display: inline-grid;
    place-items: center;
    font: 600 12px var(--pm-mono);
    background: var(--pm-surface-2);
    color: var(--pm-muted);
  }
  .kind.added {
    color: var(--pm-diff-added);
  }
  .kind.deleted {
    color: var(--pm-diff-removed);
  }
  .kind.modified,
  .kind.type-changed {
    color: var(--pm-review);
  }
  .kind.renamed,
  .kind.copied {
    color: var(--pm-busy);
  }
  .path {
    flex: 1 1 auto;
    min-width: 0;
    display: flex;
    flex-direction: column;
    overflow-wrap: anywhere;
    font-size: 15px;
  }
  .base {
    font-weight: 600;
  }
  .dir,
  .from {
    color: var(--pm-muted);
    font-size: 13px;
  }
  .counts {
    flex: 0 0 auto;
    font: 13px var(--pm-mono);
  }
  .plus {
    color: var(--pm-diff-added);
  }
  .minus {
    color: var(--pm-diff-removed);
  }
  .file-bar {
    position: sticky;
    top: 0;
    z-index: 1;
    display: flex;
    align-items: center;
    gap: 4px;
    padding: 2px calc(4px + var(--pm-safe-right)) 2px calc(4px + var(--pm-safe-left));
    background: var(--pm-surface);
    border-bottom: 1px solid var(--pm-border);
  }
  .file-name {
    flex: 1 1 auto;
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
    font-size: 15px;
  }
  /* On a phone the file's name keeps the first row, its buttons go to a second. */
  @media (max-width: 480px) {
    .file-bar {
      flex-wrap: wrap;
      justify-content: flex-end;
    }
    .file-name {
      flex-basis: calc(100% - 52px);
    }
  }
  button.revert {
    font-size: 13px;
    padding: 0 10px;
    color: var(--pm-danger);
  }
  pm-confirm-bar.confirm {
    margin: 8px 10px 0;
  }
  button.whole {
    font-size: 13px;
    padding: 0 10px;
  }
  button.whole[aria-pressed='true'] {
    background: var(--pm-surface-3);
    border-color: var(--pm-field-border);
  }
  button.wrap {
    font-size: 13px;
    padding: 0 10px;
  }
  button.wrap[aria-pressed='true'] {
    background: var(--pm-surface-3);
    border-color: var(--pm-field-border);
  }
  .diff-scroller {
    flex: 1 0 auto;
    overflow-x: auto;
    padding-bottom: 32px;
  }
  .change-note {
    margin: 8px 12px;
    font-size: 13px;
    color: var(--pm-muted);
    overflow-wrap: anywhere;
  }
  table.diff {
    border-collapse: collapse;
    font: 12.5px/1.5 var(--pm-mono);
    min-width: 100%;
    tab-size: 4;
  }
  .wrap table.diff {
    width: 100%;
    table-layout: fixed;
  }
  td.num {
    width: 3.6em;
    padding: 0 6px 0 4px;
    text-align: end;
    color: var(--pm-muted);
    vertical-align: top;
    user-select: none;
    -webkit-user-select: none;
    opacity: 0.8;
  }
  .wrap td.num {
    width: 3.2em;
  }
  td.code {
    padding: 0 10px 0 0;
    white-space: pre;
  }
  /* The + or - has a column of its own: a wrapped line goes on under its text. */
  .wrap td.code {
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  td.op {
    width: 1.3em;
    padding: 0 0 0 4px;
    vertical-align: top;
    color: var(--pm-muted);
    user-select: none;
    -webkit-user-select: none;
  }
  tr.add {
    background: color-mix(in srgb, var(--pm-accent) 10%, transparent);
  }
  tr.add .op {
    color: var(--pm-diff-added);
  }
  tr.del {
    background: color-mix(in srgb, var(--pm-danger) 10%, transparent);
  }
  tr.del .op {
    color: var(--pm-diff-removed);
  }
  tr.add mark {
    background: color-mix(in srgb, var(--pm-accent) 32%, transparent);
    color: inherit;
    border-radius: 2px;
  }
  tr.del mark {
    background: color-mix(in srgb, var(--pm-danger) 34%, transparent);
    color: inherit;
    border-radius: 2px;
  }
  /* Syntax: quiet enough that the added and removed colours stay what the eye reads first. */
  .kw {
    color: var(--pm-busy);
  }
  .str {
    color: var(--pm-review);
  }
  .num {
    color: var(--pm-attention);
  }
  .com {
    color: var(--pm-muted);
    font-style: italic;
  }
  /* Side by side: each side's cells take its line's colour; a side with no line is left quiet. */
  table.side {
    table-layout: fixed;
    width: 100%;
  }
  table.side td.code {
    width: calc(50% - 3.6em);
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  table.side td.add {
    background: color-mix(in srgb, var(--pm-accent) 10%, transparent);
  }
  table.side td.del {
    background: color-mix(in srgb, var(--pm-danger) 10%, transparent);
  }
  table.side td.add mark {
    background: color-mix(in srgb, var(--pm-accent) 32%, transparent);
    color: inherit;
  }
  table.side td.del mark {
    background: color-mix(in srgb, var(--pm-danger) 34%, transparent);
    color: inherit;
  }
  table.side td.empty {
    background: var(--pm-surface);
  }
  table.side td.picked {
    background: color-mix(in srgb, var(--pm-review) 22%, transparent);
  }
  table.side td.code {
    border-inline-end: 1px solid var(--pm-border);
  }
  tr.fold td {
    background: var(--pm-surface);
    color: var(--pm-muted);
    font-style: italic;
    padding-top: 3px;
    padding-bottom: 3px;
  }
  .section {
    font-style: normal;
    margin-inline-start: 8px;
  }
  .cut {
    color: var(--pm-muted);
    font-style: italic;
  }
  td.num,
  td.op {
    cursor: pointer;
  }
  tr[aria-selected='true'] td {
    background: color-mix(in srgb, var(--pm-review) 22%, transparent);
  }
  tr[aria-selected='true'] td.num {
    color: var(--pm-text);
  }
  /* What was picked, over the bottom of the view: the way back to Claude. */
  .ask {
    position: sticky;
    bottom: 0;
    z-index: 1;
    margin-top: auto;
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 8px;
    padding: 8px calc(12px + var(--pm-safe-right)) calc(8px + var(--pm-safe-bottom)) calc(12px + var(--pm-safe-left));
    background: var(--pm-surface);
    border-top: 1px solid var(--pm-border);
    box-shadow: 0 -4px 12px var(--pm-shadow);
  }
  .picked {
    flex: 1 1 auto;
    min-width: 0;
    font: 13px var(--pm-mono);
    overflow-wrap: anywhere;
  }
  .ask .error {
    flex-basis: 100%;
  }
  .commit-row {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 10px;
    padding: 0 calc(14px + var(--pm-safe-right)) 20px calc(14px + var(--pm-safe-left));
    font-size: 14px;
  }
  form.commit {
    display: flex;
    flex-direction: column;
    gap: 8px;
    margin: 0 calc(10px + var(--pm-safe-right)) 20px calc(10px + var(--pm-safe-left));
    padding: 12px;
    border: 1px solid var(--pm-border);
    border-radius: var(--pm-radius);
    background: var(--pm-surface);
  }
  form.commit label[for] {
    font-weight: 600;
    font-size: 14px;
  }
  form.commit textarea {
    font: 15px/1.4 var(--pm-font);
    color: inherit;
    padding: 10px 12px;
    border-radius: 10px;
    border: 1px solid var(--pm-field-border);
    background: var(--pm-bg);
    resize: vertical;
  }
  form.commit fieldset {
    border: 0;
    margin: 0;
    padding: 0;
    display: flex;
    flex-direction: column;
  }
  form.commit legend {
    font-size: 13px;
    color: var(--pm-muted);
    padding: 0;
    margin-bottom: 2px;
  }
  .pick-file {
    display: flex;
    align-items: center;
    gap: 10px;
    min-height: var(--pm-tap);
    font: 13px var(--pm-mono);
    overflow-wrap: anywhere;
  }
  .pick-file input {
    width: 20px;
    height: 20px;
    min-height: 0;
    flex: none;
  }
  form.commit .buttons {
    display: flex;
    justify-content: flex-end;
    gap: 8px;
  }
  .more {
    padding: 12px;
    display: flex;
    justify-content: center;
  }
`;
