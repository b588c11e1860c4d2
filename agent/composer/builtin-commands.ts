/**
 * Claude Code's built-in slash commands, as the composer offers them when `/` is typed: the
 * ones the CLI this project is tested with (`@anthropic-ai/claude-code` 2.1.332) has in its
 * command table and shows (`cost` is its other name for `usage`). Descriptions are one line
 * each. Another version may lack one: that claude answers it as unknown, nothing worse.
 */
export interface BuiltinCommand {
  name: string;
  description: string;
}

export const BUILTIN_COMMANDS: readonly BuiltinCommand[] = [
  { name: 'add-dir', description: 'Add a working directory' },
  { name: 'btw', description: 'Ask a side question without interrupting Claude' },
  { name: 'branch', description: 'Create a branch of the current conversation at this point' },
  { name: 'bug', description: 'Report a bug or share your session' },
  { name: 'clear', description: 'Clear the conversation and start with an empty context' },
  { name: 'compact', description: 'Free up context by summarizing the conversation so far' },
  { name: 'config', description: 'Open settings' },
  { name: 'context', description: 'Show what fills the context' },
  { name: 'cost', description: 'Show token usage and cost of this session' },
  { name: 'doctor', description: 'Check the health of your Claude Code installation' },
  { name: 'effort', description: "Set the model's effort level" },
  { name: 'exit', description: 'Exit the CLI' },
  { name: 'export', description: 'Export this session to a file or clipboard' },
  { name: 'help', description: 'Show help and available commands' },
  { name: 'hooks', description: 'View hook configurations for tool events' },
  { name: 'init', description: 'Initialize a new CLAUDE.md file with codebase documentation' },
  { name: 'login', description: 'Sign in with your Anthropic account, or switch accounts' },
  { name: 'logout', description: 'Sign out from your Anthropic account' },
  { name: 'mcp', description: 'Manage MCP servers' },
  { name: 'memory', description: 'Edit CLAUDE.md files and memory settings' },
  { name: 'model', description: 'Set the AI model for Claude Code' },
  { name: 'permissions', description: 'Manage allow and deny tool permission rules' },
  { name: 'plan', description: 'Turn on plan mode or view the plan' },
  { name: 'resume', description: 'Resume a previous session' },
  { name: 'rewind', description: 'Restore earlier code, conversation, or both' },
  { name: 'skills', description: 'List available skills' },
  { name: 'status', description: 'Show version, account, model, MCP servers, and setup warnings' },
  { name: 'statusline', description: 'Set up the status line' },
  { name: 'terminal-setup', description: 'Set up the terminal for Shift+Enter newlines' },
  { name: 'usage', description: 'Show session cost, plan usage, and activity stats' },
];
