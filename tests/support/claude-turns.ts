/**
 * Turns the tests make the real Claude Code CLI take against the stand-in API: asking to run a
 * command (a permission request), and answering in Markdown.
 */
import type { Approval } from '../../protocol/approvals.js';
import type { ClaudePane } from './claude-pane.js';
import { PERMISSION_DIALOG } from './claude-pane.js';
import { eventually } from './eventually.js';
import { bash, type FakeAnthropic } from './fake-anthropic.js';
import type { StatusClient } from './status.js';

/** A Claude in a tab: the stand-in API it talks to, a status client, and the pane it runs in. */
export interface ClaudeInTab {
  fake: FakeAnthropic;
  status: StatusClient;
  pane: ClaudePane;
  tabId: string;
}

/**
 * A prompt typed in the pane that makes Claude ask to run `command`: resolves with the approval
 * offered, once Claude's own dialog shows too.
 */
export async function askToRun(claude: ClaudeInTab, prompt: string, command: string): Promise<Approval> {
  claude.fake.onPrompt(prompt, bash(command, 'Write a file'));
  const before = new Set(claude.status.openApprovals().map((a) => a.id));
  await claude.pane.submit(prompt);
  const approval = await eventually(() => claude.status.openApprovals().find((a) => a.tabId === claude.tabId && !before.has(a.id)), 30_000, 'the approval');
  await claude.pane.waitScreen('the permission dialog', (s) => s.includes(PERMISSION_DIALOG));
  return approval;
}

/** Claude's answer in Markdown: a list with a bold word, a code block, and a script meant to stay text. */
export const MARKDOWN_ANSWER = [
  'Here is the plan:',
  '',
  '- rename the **button**',
  '- update the tests',
  '',
  '```ts',
  'const colour = "blue";',
  '```',
  '',
  'Careful with <script>window.__pwned = true</script> in templates.',
].join('\n');
