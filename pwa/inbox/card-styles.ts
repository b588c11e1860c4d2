import { css } from 'lit';
import { spinner } from '../ui/styles.js';

/** The look every inbox card shares: a surface with a coloured edge, its parts and buttons. */
export const cardStyles = [
  spinner,
  css`
  :host {
    display: block;
  }
  .card {
    position: relative;
    display: flex;
    flex-direction: column;
    gap: 10px;
    padding: 14px 14px 10px 16px;
    background: var(--pm-surface);
    border: 1px solid var(--pm-border);
    border-radius: var(--pm-radius);
    box-shadow: inset 3px 0 0 var(--pm-attention);
    min-width: 0;
  }
  .card.settled {
    box-shadow: inset 3px 0 0 var(--pm-border);
  }
  .card.review {
    box-shadow: inset 3px 0 0 var(--pm-review);
  }
  .top {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px 8px;
    min-width: 0;
    font-size: 13px;
    color: var(--pm-muted);
  }
  .kind {
    flex: none;
    display: inline-flex;
    align-items: center;
    gap: 5px;
    max-width: 60%;
    padding: 2px 8px 2px 6px;
    border-radius: 999px;
    background: color-mix(in srgb, var(--pm-attention) 12%, transparent);
    color: var(--pm-attention);
    font-weight: 650;
    font-size: 13px;
  }
  .kind span {
    min-width: 0;
    overflow: hidden;
    text-overflow: ellipsis;
    white-space: nowrap;
  }
  .review .kind {
    background: color-mix(in srgb, var(--pm-review) 12%, transparent);
    color: var(--pm-review);
  }
  /* Workspace · tab · age: the names give way before the age. */
  .where {
    flex: 1 1 auto;
    /* Too little room beside the chip: the line goes below it rather than cutting both names. */
    min-width: min(100%, 14em);
    display: flex;
    justify-content: flex-end;
    gap: 0.5ch;
    white-space: nowrap;
  }
  .where .name {
    min-width: 1.5em;
    overflow: hidden;
    text-overflow: ellipsis;
  }
  .where .age {
    flex: none;
  }
  /* One or two lines: the command or the diff below shows it all. */
  h3 {
    margin: 0;
    font-size: 16px;
    font-weight: 650;
    line-height: 1.35;
    overflow-wrap: anywhere;
    display: -webkit-box;
    -webkit-box-orient: vertical;
    -webkit-line-clamp: 2;
    line-clamp: 2;
    overflow: hidden;
  }
  p {
    margin: 0;
    overflow-wrap: anywhere;
  }
  .description {
    color: var(--pm-muted);
    font-size: 15px;
  }
  pre,
  .diff {
    margin: 0;
    padding: 8px 10px;
    max-height: 220px;
    overflow: auto;
    overscroll-behavior: contain;
    border-radius: 8px;
    background: var(--pm-bg);
    border: 1px solid var(--pm-surface-2);
    font-family: var(--pm-mono);
    font-size: 13px;
    line-height: 1.45;
    white-space: pre-wrap;
    overflow-wrap: anywhere;
  }
  .diff {
    padding: 6px 0;
  }
  .diff div {
    padding: 0 10px;
    min-height: 1.45em;
  }
  .diff .added {
    background: color-mix(in srgb, var(--pm-accent) 10%, transparent);
    color: var(--pm-diff-added);
  }
  .diff .removed {
    background: color-mix(in srgb, var(--pm-danger) 10%, transparent);
    color: var(--pm-diff-removed);
  }
  .diff .gap {
    color: var(--pm-muted);
    font-style: italic;
  }
  .path {
    font-family: var(--pm-mono);
    font-size: 13px;
    color: var(--pm-muted);
    overflow-wrap: anywhere;
  }
  /* The two answers that matter, large and far apart: a slip cannot hit the other one. */
  .decide {
    display: flex;
    justify-content: space-between;
    gap: 24px;
    margin-top: 2px;
  }
  .decide button {
    flex: 0 1 42%;
    min-height: 52px;
    font-size: 17px;
    font-weight: 650;
    border-radius: 12px;
  }
  .decide .deny {
    background: var(--pm-danger-bg);
    border-color: var(--pm-danger-border);
    color: var(--pm-danger);
  }
  button.wide {
    width: 100%;
    min-height: 48px;
    white-space: normal;
    text-align: center;
    line-height: 1.3;
    padding: 8px 14px;
  }
  /* A choice of its own, quieter than the two above it. */
  button.quiet {
    background: transparent;
    color: var(--pm-text);
    font-size: 15px;
  }
  .reason {
    display: flex;
    flex-direction: column;
    gap: 8px;
  }
  .reason input {
    width: 100%;
    min-height: 48px;
  }
  .links {
    display: flex;
    flex-wrap: wrap;
    align-items: center;
    gap: 4px 2px;
    margin: 0 -8px;
  }
  .links button {
    min-height: var(--pm-tap);
    padding: 0 8px;
    font-size: 14px;
    border-color: transparent;
    background: transparent;
    color: var(--pm-accent);
  }
  .links .end {
    margin-left: auto;
  }
  /* Why a card of the offline view offers no answer. */
  .offline {
    color: var(--pm-muted);
    font-size: 14px;
  }
  .note {
    padding: 10px 12px;
    border-radius: 10px;
    background: var(--pm-surface-2);
    color: var(--pm-text);
    font-weight: 600;
  }
`,
];

/** A card's answers as a column of wide buttons: a question's options, a dialog's choices. */
export const optionStyles = css`
  .options {
    display: flex;
    flex-direction: column;
    gap: 8px;
  }
  button.option {
    justify-content: flex-start;
    text-align: left;
    white-space: normal;
    min-height: 52px;
    padding: 8px 14px;
    gap: 12px;
    border-radius: 12px;
  }
  button.option[aria-pressed='true'] {
    border-color: var(--pm-accent);
    background: color-mix(in srgb, var(--pm-accent) 12%, transparent);
  }
  .option .texts {
    display: flex;
    flex-direction: column;
    min-width: 0;
    flex: 1 1 auto;
  }
  .option .label {
    font-weight: 600;
    overflow-wrap: anywhere;
  }
  .option .desc {
    color: var(--pm-muted);
    font-size: 14px;
    overflow-wrap: anywhere;
  }
`;
