import { html } from 'lit';

/**
 * An error message from the agent as a sentence: capitalised, with its `backticked`
 * commands set in code type. The agent writes them for terminals and logs as well.
 */
export function agentText(message: string) {
  const text = message.charAt(0).toUpperCase() + message.slice(1);
  const parts = text.split('`');
  // An odd count of backticks leaves the last one unmatched: show the text as it came.
  if (parts.length % 2 === 0) return text;
  return parts.map((part, i) => (i % 2 === 1 ? html`<code>${part}</code>` : part));
}
