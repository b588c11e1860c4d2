import { css } from 'lit';

/** The timeline's look: the conversation's entries, the banners over it, the way back to its end. */
export const timelineStyles = css`
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
      position: relative;
    }
    .stage {
      flex: 1 1 auto;
      min-height: 0;
      display: flex;
      flex-direction: column;
      position: relative;
    }
    .scroller {
      flex: 1 1 auto;
      min-height: 0;
      overflow-y: auto;
      overscroll-behavior: contain;
      -webkit-overflow-scrolling: touch;
    }
    .entries {
      list-style: none;
      margin: 0 auto;
      max-width: 820px;
      /* The end keeps room for the "what Claude is doing" line, so its coming moves nothing. */
      padding: 16px calc(14px + var(--pm-safe-right)) 72px calc(14px + var(--pm-safe-left));
      display: flex;
      flex-direction: column;
      gap: 12px;
    }
    .entries > li {
      min-width: 0;
    }
    .text {
      margin: 0;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
      line-height: 1.5;
    }
    .prompt {
      display: flex;
      flex-direction: column;
      align-items: flex-end;
      gap: 3px;
      margin-top: 8px;
    }
    .prompt .text {
      max-width: min(88%, 640px);
      padding: 9px 13px;
      border-radius: 14px 14px 4px 14px;
      background: color-mix(in srgb, var(--pm-accent) 16%, var(--pm-surface));
      border: 1px solid color-mix(in srgb, var(--pm-accent) 30%, var(--pm-border));
    }
    time,
    a.review-file {
      display: inline-flex;
      align-items: center;
      min-height: var(--pm-tap);
      color: var(--pm-accent);
      font-size: 14px;
    }
    .meta {
      color: var(--pm-muted);
      font-size: 12px;
    }
    .assistant {
      padding: 0 2px;
      min-width: 0;
    }
    .cut {
      color: var(--pm-muted);
      font-size: 13px;
      font-style: italic;
    }
    /* Claude's Markdown. */
    .md {
      line-height: 1.55;
      overflow-wrap: anywhere;
    }
    .md > :first-child {
      margin-top: 0;
    }
    .md > :last-child {
      margin-bottom: 0;
    }
    .md p,
    .md ul,
    .md ol,
    .md blockquote,
    .md .code,
    .md .table {
      margin: 0 0 10px;
    }
    .md ul,
    .md ol {
      padding-left: 1.4em;
    }
    .md ul {
      list-style: disc;
    }
    .md ol {
      list-style: decimal;
    }
    .md ul ul {
      list-style: circle;
    }
    .md li {
      margin: 3px 0;
    }
    .md li > p {
      margin: 0;
    }
    .md h1,
    .md h2,
    .md h3,
    .md h4,
    .md h5,
    .md h6 {
      margin: 16px 0 8px;
      line-height: 1.3;
    }
    .md h1 {
      font-size: 1.3em;
    }
    .md h2 {
      font-size: 1.18em;
    }
    .md h3,
    .md h4,
    .md h5,
    .md h6 {
      font-size: 1.05em;
    }
    .md a {
      color: var(--pm-accent);
    }
    .md a:not([href]) {
      color: inherit;
      text-decoration: underline dotted;
    }
    .md blockquote {
      padding: 2px 12px;
      border-left: 3px solid var(--pm-border);
      color: var(--pm-muted);
    }
    .md hr {
      border: none;
      border-top: 1px solid var(--pm-border);
      margin: 14px 0;
    }
    .md :not(pre) > code {
      font-family: var(--pm-mono);
      font-size: 0.88em;
      padding: 1px 5px;
      border-radius: 5px;
      background: var(--pm-surface-2);
      border: 1px solid var(--pm-border);
    }
    .md .code {
      border: 1px solid var(--pm-border);
      border-radius: 10px;
      background: var(--pm-bg);
      overflow: hidden;
    }
    .md .code-bar {
      display: flex;
      align-items: center;
      justify-content: space-between;
      gap: 8px;
      padding-left: 12px;
      border-bottom: 1px solid var(--pm-border);
      background: var(--pm-surface);
      color: var(--pm-muted);
      font-size: 12px;
      font-family: var(--pm-mono);
    }
    .md .code-bar button {
      min-width: var(--pm-tap);
      padding: 0 12px;
      border: none;
      border-radius: 0;
      background: transparent;
      color: var(--pm-muted);
      font-family: var(--pm-font);
      font-size: 13px;
    }
    .md .code-bar button.copied {
      color: var(--pm-accent);
    }
    .md .code pre {
      max-height: none;
      border-radius: 0;
      padding: 10px 12px;
      white-space: pre;
      overflow-wrap: normal;
      overflow-x: auto;
    }
    .md .table {
      overflow-x: auto;
    }
    .md table {
      border-collapse: collapse;
      font-size: 14px;
    }
    .md th,
    .md td {
      border: 1px solid var(--pm-border);
      padding: 6px 10px;
      text-align: left;
      vertical-align: top;
      overflow-wrap: normal;
    }
    .md th {
      background: var(--pm-surface-2);
    }
    details {
      border: 1px solid var(--pm-border);
      border-radius: 10px;
      background: var(--pm-surface);
      min-width: 0;
    }
    summary {
      display: flex;
      align-items: center;
      gap: 8px;
      min-height: var(--pm-tap);
      padding: 6px 12px;
      cursor: pointer;
      list-style: none;
      border-radius: 10px;
      touch-action: manipulation;
    }
    summary::-webkit-details-marker {
      display: none;
    }
    summary:focus-visible {
      outline: 2px solid var(--pm-accent);
      outline-offset: 1px;
    }
    summary::after {
      content: '';
      flex: none;
      margin-left: auto;
      width: 7px;
      height: 7px;
      border-right: 2px solid var(--pm-muted);
      border-bottom: 2px solid var(--pm-muted);
      transform: rotate(45deg) translate(-2px, -2px);
    }
    details[open] > summary::after {
      transform: rotate(-135deg) translate(-2px, -2px);
    }
    .tool-name {
      flex: none;
      font-weight: 650;
      font-size: 14px;
    }
    .tool-summary {
      flex: 0 1 auto;
      min-width: 0;
      font-family: var(--pm-mono);
      font-size: 13px;
      color: var(--pm-muted);
      white-space: nowrap;
      overflow: hidden;
      text-overflow: ellipsis;
    }
    .mark {
      flex: none;
      display: inline-grid;
      place-items: center;
      width: 20px;
      height: 20px;
      border-radius: 50%;
      font-size: 12px;
      font-weight: 700;
    }
    .mark.ok {
      background: color-mix(in srgb, var(--pm-accent) 15%, transparent);
      color: var(--pm-accent);
    }
    .mark.error {
      background: var(--pm-danger-bg);
      color: var(--pm-danger);
    }
    .mark.running {
      border: 2px solid color-mix(in srgb, var(--pm-busy) 28%, transparent);
      border-top-color: var(--pm-busy);
      animation: spin 0.9s linear infinite;
      width: 16px;
      height: 16px;
      margin: 2px;
    }
    @keyframes spin {
      to {
        transform: rotate(1turn);
      }
    }
    @media (prefers-reduced-motion: reduce) {
      .mark.running {
        animation: none;
      }
    }
    .body {
      display: flex;
      flex-direction: column;
      gap: 8px;
      padding: 0 12px 12px;
    }
    .label {
      font-size: 12px;
      color: var(--pm-muted);
      text-transform: uppercase;
      letter-spacing: 0.04em;
    }
    pre {
      margin: 0;
      padding: 8px 10px;
      max-height: 320px;
      overflow: auto;
      border-radius: 8px;
      background: var(--pm-bg);
      font-family: var(--pm-mono);
      font-size: 12.5px;
      line-height: 1.45;
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    pre.error {
      color: var(--pm-danger);
    }
    .thinking {
      background: transparent;
      border-style: dashed;
    }
    .thinking summary {
      color: var(--pm-muted);
      font-size: 14px;
      font-style: italic;
    }
    .thinking .body {
      color: var(--pm-muted);
      font-size: 14px;
    }
    .marker {
      display: flex;
      align-items: center;
      gap: 10px;
      color: var(--pm-warn);
      font-size: 13px;
    }
    .marker::before,
    .marker::after {
      content: '';
      flex: 1 1 auto;
      border-top: 1px solid color-mix(in srgb, var(--pm-warn) 35%, transparent);
    }
    .notice {
      font-size: 13px;
      color: var(--pm-muted);
      padding: 6px 10px;
      border-left: 3px solid var(--pm-border);
      white-space: pre-wrap;
      overflow-wrap: anywhere;
    }
    .notice.warning {
      border-left-color: var(--pm-warn);
      color: var(--pm-warn);
    }
    .notice.error {
      border-left-color: var(--pm-danger);
      color: var(--pm-danger);
    }
    .placeholder {
      margin: auto;
      padding: 32px 24px;
      max-width: 420px;
      text-align: center;
      color: var(--pm-muted);
    }
    .banner {
      position: absolute;
      top: 8px;
      left: 50%;
      transform: translateX(-50%);
      z-index: 1;
      display: flex;
      align-items: center;
      gap: 10px;
      padding: 3px 3px 3px 14px;
      max-width: calc(100% - 16px);
      border-radius: 12px;
      background: color-mix(in srgb, var(--pm-warn) 12%, var(--pm-surface));
      border: 1px solid color-mix(in srgb, var(--pm-warn) 35%, transparent);
      color: var(--pm-warn);
      font-size: 14px;
    }
    .banner.error {
      background: var(--pm-danger-bg);
      border-color: color-mix(in srgb, var(--pm-danger) 35%, transparent);
      color: var(--pm-danger);
      padding: 8px 14px;
    }
    .banner button {
      font-size: 14px;
      border-color: color-mix(in srgb, var(--pm-warn) 35%, transparent);
      background: transparent;
    }
    .latest {
      position: absolute;
      /* Above the "what Claude is doing" line when it shows. */
      bottom: 64px;
      left: 50%;
      transform: translateX(-50%);
      border-radius: 999px;
      background: var(--pm-surface-3);
      z-index: 1;
    }
  `;
