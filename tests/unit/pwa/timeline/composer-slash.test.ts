import { describe, expect, it } from 'vitest';
import type { SlashCommandView } from '../../../../protocol/api.js';
import { filterCommands, insertCommand, readableCommands, SLASH_MENU_MAX, slashQuery, sourceLabel } from '../../../../pwa/timeline/slash-commands.js';

const cmd = (name: string, description: string | null = null, source: SlashCommandView['source'] = 'builtin'): SlashCommandView => ({ name, description, source });

const COMMANDS = [
  cmd('clear', 'Clear conversation history and free up context'),
  cmd('compact', 'Clear conversation history but keep a summary in context'),
  cmd('config', 'Open the settings'),
  cmd('cost', 'Show the total cost of this session'),
  cmd('frontend:review', 'Review the UI change', 'project'),
  cmd('recompile', 'Rebuild everything', 'user'),
];

describe('slash commands in the composer', () => {
  it('are offered while the field is a command being named', () => {
    expect(slashQuery('/', 1)).toBe('');
    expect(slashQuery('/com', 4)).toBe('com');
    expect(slashQuery('/com', 2)).toBe('com');
    // Past the command's word, or not at the start of the field: no menu.
    expect(slashQuery('/compact now', 12)).toBeNull();
    expect(slashQuery('/compact now', 8)).toBe('compact');
    expect(slashQuery('see /com', 8)).toBeNull();
    expect(slashQuery('', 0)).toBeNull();
    expect(slashQuery('/x', 0)).toBeNull();
  });

  it('are filtered as typed: names starting with it first, then names holding it, then descriptions', () => {
    const names = (q: string) => filterCommands(COMMANDS, q).map((c) => c.name);
    expect(names('')).toEqual(COMMANDS.map((c) => c.name));
    expect(names('co')).toEqual(['compact', 'config', 'cost', 'recompile', 'clear']);
    expect(names('COMP')).toEqual(['compact', 'recompile']);
    expect(names('review')).toEqual(['frontend:review']);
    expect(names('summary')).toEqual(['compact']);
    expect(names('zzz')).toEqual([]);
  });

  it(`lists at most ${SLASH_MENU_MAX} at once`, () => {
    const many = Array.from({ length: SLASH_MENU_MAX + 10 }, (_, i) => cmd(`c${i}`));
    expect(filterCommands(many, '')).toHaveLength(SLASH_MENU_MAX);
  });

  it('insert `/name ` for the typed word, keeping what follows it', () => {
    expect(insertCommand('/com', 'compact')).toEqual({ value: '/compact ', caret: 9 });
    expect(insertCommand('/', 'clear')).toEqual({ value: '/clear ', caret: 7 });
    expect(insertCommand('/rev the login page', 'frontend:review')).toEqual({ value: '/frontend:review the login page', caret: 17 });
  });

  it('say where each comes from', () => {
    expect(sourceLabel('builtin')).toBe('built-in');
    expect(sourceLabel('project')).toBe('project');
    expect(sourceLabel('user')).toBe('user');
  });

  it("read the agent's list, leaving out what is not a command", () => {
    expect(
      readableCommands({
        commands: [cmd('compact', 'Keep a summary'), { name: '' }, null, { name: 'x', description: 3, source: 'elsewhere' }, 'text'],
      }),
    ).toEqual([cmd('compact', 'Keep a summary'), cmd('x')]);
    expect(readableCommands(null)).toEqual([]);
    expect(readableCommands({ commands: 'no' })).toEqual([]);
  });
});
