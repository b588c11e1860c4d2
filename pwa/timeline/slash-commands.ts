/** The composer's slash commands: when `/` offers them, which ones match, and what picking one writes. */
import type { SlashCommandView } from '../../protocol/api.js';

/** At most this many are listed at once; typing narrows them down. */
export const SLASH_MENU_MAX = 60;

/**
 * What is typed after `/` while the field is a command being named: the field starts with `/`,
 * and the caret is still in that first word. Null otherwise (no menu).
 */
export function slashQuery(value: string, caret: number): string | null {
  if (!value.startsWith('/')) return null;
  const end = value.search(/\s/);
  const wordEnd = end === -1 ? value.length : end;
  if (caret < 1 || caret > wordEnd) return null;
  return value.slice(1, wordEnd);
}

/**
 * The commands that match `query`, best first: names that start with it, then names that hold
 * it, then those whose description holds it; in the agent's order within each. Case is ignored.
 */
export function filterCommands(commands: readonly SlashCommandView[], query: string): SlashCommandView[] {
  const q = query.toLowerCase();
  const starts: SlashCommandView[] = [];
  const holds: SlashCommandView[] = [];
  const described: SlashCommandView[] = [];
  for (const c of commands) {
    const name = c.name.toLowerCase();
    if (name.startsWith(q)) starts.push(c);
    else if (name.includes(q)) holds.push(c);
    else if (q !== '' && c.description?.toLowerCase().includes(q)) described.push(c);
  }
  return [...starts, ...holds, ...described].slice(0, SLASH_MENU_MAX);
}

/** The field with its first word replaced by `/name ` (what was after that word stays), and where the caret goes. */
export function insertCommand(value: string, name: string): { value: string; caret: number } {
  const end = value.search(/\s/);
  const rest = end === -1 ? '' : value.slice(end).replace(/^[ \t]+/, '');
  const head = `/${name} `;
  return { value: head + rest, caret: head.length };
}

/** How the list says where a command comes from, in Claude Code's own words. */
export function sourceLabel(source: SlashCommandView['source']): string {
  switch (source) {
    case 'builtin':
      return 'built-in';
    case 'project':
      return 'project';
    case 'user':
      return 'user';
  }
}

/** The commands of a response the app can show: anything not shaped as one (a newer agent's) is left out. */
export function readableCommands(body: unknown): SlashCommandView[] {
  const list = (body as { commands?: unknown } | null)?.commands;
  if (!Array.isArray(list)) return [];
  return list.flatMap((c: Partial<SlashCommandView> | null) => {
    if (!c || typeof c.name !== 'string' || c.name === '') return [];
    const source = c.source === 'project' || c.source === 'user' ? c.source : 'builtin';
    return [{ name: c.name, description: typeof c.description === 'string' ? c.description : null, source }];
  });
}
