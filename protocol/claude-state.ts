/**
 * The states of a Claude tab, apart from the status schemas: the CLI checks `--wait-for`
 * against them without loading the schema library.
 */
export const CLAUDE_STATES = ['idle', 'busy', 'needs-input', 'ready-for-review', 'unknown'] as const;
export type ClaudeState = (typeof CLAUDE_STATES)[number];
