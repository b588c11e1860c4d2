/**
 * The agent CLIs pocketmux runs in a tab, named once: the tab kinds on the wire, the words
 * the app and the CLI use for each, and where each one's hooks are posted. Zod-free, so the
 * service worker and the CLI read it too.
 */

/** Each agent CLI a tab can run; a shell tab runs none of its own. */
export const AGENT_KINDS = ['claude', 'codex'] as const;
export type AgentKind = (typeof AGENT_KINDS)[number];

/** What a tab starts: the person's login shell, or one of the agent CLIs (then the shell). */
export const TAB_KINDS = ['shell', ...AGENT_KINDS] as const;
export type TabKind = (typeof TAB_KINDS)[number];

/** The agent as a row, a card or a push names it. */
export const AGENT_NAMES: Readonly<Record<AgentKind, string>> = { claude: 'Claude', codex: 'Codex' };

export function isAgentKind(kind: string): kind is AgentKind {
  return (AGENT_KINDS as readonly string[]).includes(kind);
}
