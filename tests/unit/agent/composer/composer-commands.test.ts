import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BUILTIN_COMMANDS } from '../../../../agent/composer/builtin-commands.js';
import { COMMAND_LIMITS, commandDescription, commandName, commandsFrom, mergeCommands } from '../../../../agent/composer/command-files.js';
import { readCommandFiles, slashCommands } from '../../../../agent/composer/command-scan.js';
import { tempFolders } from '../../../support/temp-folders.js';

describe('a command name from its path under commands/', () => {
  it.each([
    ['review.md', 'review'],
    ['frontend/review.md', 'frontend:review'],
    ['a/b/c.md', 'a:b:c'],
    ['fix_issue-2.md', 'fix_issue-2'],
    ['v1.2.md', 'v1.2'],
  ])('%s is /%s', (path, name) => {
    expect(commandName(path)).toBe(name);
  });

  it.each([
    ['notes.txt'],
    ['README'],
    ['.hidden.md'],
    ['dir/.hidden.md'],
    ['.git/x.md'],
    ['with space.md'],
    ['$(touch x).md'],
    ['semi;colon.md'],
    ['new\nline.md'],
    ['esc\u001b[2J.md'],
    ['bidi\u202egpj.md'],
    ['ünïcode.md'],
    ['a//b.md'],
    ['.md'],
    [`${'x'.repeat(101)}.md`],
  ])('refuses %j', (path) => {
    expect(commandName(path)).toBeNull();
  });

  it('takes a name of exactly 100 characters', () => {
    expect(commandName(`${'x'.repeat(100)}.md`)).toBe('x'.repeat(100));
  });
});

describe('a command description', () => {
  it("is the frontmatter's description", () => {
    expect(commandDescription('---\ndescription: Review the diff\nallowed-tools: Bash\n---\nLook at $ARGUMENTS')).toBe('Review the diff');
  });

  it('unquotes a quoted description and reads a folded one', () => {
    expect(commandDescription('---\ndescription: "Say \\"hi\\""\n---\nbody')).toBe('Say "hi"');
    expect(commandDescription("---\ndescription: 'It''s fine'\n---\nbody")).toBe("It's fine");
    expect(commandDescription('---\ndescription: >\n  Two lines\n  folded\nmodel: x\n---\nbody')).toBe('Two lines folded');
    expect(commandDescription('---\ndescription: plain # a comment\n---\n')).toBe('plain');
  });

  it('is the first non-empty line without one, trimmed, frontmatter or not', () => {
    expect(commandDescription('\n\n   Fix the failing test  \nmore')).toBe('Fix the failing test');
    expect(commandDescription('---\nallowed-tools: Bash\n---\n\n# Deploy it\n')).toBe('# Deploy it');
    expect(commandDescription('---\ndescription:\n---\nFrom the body')).toBe('From the body');
    expect(commandDescription('\uFEFFWith a BOM\r\nsecond')).toBe('With a BOM');
  });

  it('is null for an empty file, or frontmatter that never closes', () => {
    expect(commandDescription('')).toBeNull();
    expect(commandDescription('  \n\n')).toBeNull();
    expect(commandDescription('---\ndescription: cut short')).toBeNull();
  });

  it('spells out control and bidi characters, and stops at 200 characters', () => {
    expect(commandDescription('---\ndescription: a\u001b]0;x\u0007b\u202ec\n---\n')).toBe('a\\x1b]0;x\\x07b\\u202ec');
    const long = commandDescription(`${'é'.repeat(300)}\n`) as string;
    expect(Array.from(long)).toHaveLength(COMMAND_LIMITS.description);
    expect(long.endsWith('…')).toBe(true);
  });
});

describe('merging the sources', () => {
  it('lists project, then user, then built-in commands, each by name, a name once (project wins)', () => {
    const project = commandsFrom(
      [
        { relativePath: 'zeta.md', content: 'Z' },
        { relativePath: 'compact.md', content: 'My compact' },
        { relativePath: 'bad name.md', content: 'refused' },
      ],
      'project',
    );
    const user = commandsFrom(
      [
        { relativePath: 'alpha.md', content: 'A' },
        { relativePath: 'zeta.md', content: 'user zeta' },
      ],
      'user',
    );
    const builtin = [
      { name: 'compact', description: 'builtin', source: 'builtin' as const },
      { name: 'clear', description: 'builtin', source: 'builtin' as const },
    ];
    expect(mergeCommands(project, user, builtin)).toEqual([
      { name: 'compact', description: 'My compact', source: 'project' },
      { name: 'zeta', description: 'Z', source: 'project' },
      { name: 'alpha', description: 'A', source: 'user' },
      { name: 'clear', description: 'builtin', source: 'builtin' },
    ]);
  });

  it('has valid, unique built-in names with a description each', () => {
    const names = BUILTIN_COMMANDS.map((c) => c.name);
    expect(new Set(names).size).toBe(names.length);
    for (const c of BUILTIN_COMMANDS) {
      expect(commandName(`${c.name}.md`)).toBe(c.name);
      expect(c.description.length).toBeGreaterThan(0);
      expect(c.description).not.toMatch(/\n/);
    }
    expect(names).toEqual(expect.arrayContaining(['compact', 'clear', 'model', 'resume', 'usage']));
  });
});

describe('reading a commands folder', () => {
  const temp = tempFolders('pm-commands-', 'each');

  it('reads nested files, follows links only inside the folder, and skips what is refused', async () => {
    const root = temp();
    const commands = join(root, 'commands');
    mkdirSync(join(commands, 'frontend', 'deep'), { recursive: true });
    writeFileSync(join(commands, 'top.md'), 'Top level');
    writeFileSync(join(commands, 'frontend', 'review.md'), '---\ndescription: Review UI\n---\n');
    writeFileSync(join(commands, 'frontend', 'deep', 'x.md'), 'Deep');
    writeFileSync(join(commands, 'bad\u202ename.md'), 'hostile');
    writeFileSync(join(commands, 'notes.txt'), 'not a command');
    const outside = join(root, 'secret.md');
    writeFileSync(outside, 'outside the folder');
    symlinkSync(outside, join(commands, 'leak.md'));
    symlinkSync(join(commands, 'top.md'), join(commands, 'alias.md'));
    symlinkSync(root, join(commands, 'up'));
    const files = await readCommandFiles(commands);
    expect(files.map((f) => f.relativePath).sort()).toEqual(['alias.md', 'frontend/deep/x.md', 'frontend/review.md', 'top.md']);
    expect(files.find((f) => f.relativePath === 'alias.md')?.content).toBe('Top level');
  });

  it('has none where there is no folder', async () => {
    expect(await readCommandFiles(join(temp(), 'missing'))).toEqual([]);
  });

  it("lists a session's commands: project, user and built-in", async () => {
    const project = temp();
    const config = temp();
    mkdirSync(join(project, '.claude', 'commands'), { recursive: true });
    mkdirSync(join(config, 'commands'), { recursive: true });
    writeFileSync(join(project, '.claude', 'commands', 'ship.md'), 'Ship it');
    writeFileSync(join(config, 'commands', 'mine.md'), '---\ndescription: Mine\n---\n');
    const commands = await slashCommands({ sessionDir: project, claudeConfigDir: config });
    expect(commands.slice(0, 2)).toEqual([
      { name: 'ship', description: 'Ship it', source: 'project' },
      { name: 'mine', description: 'Mine', source: 'user' },
    ]);
    expect(commands.slice(2).every((c) => c.source === 'builtin')).toBe(true);
    expect(commands).toHaveLength(2 + BUILTIN_COMMANDS.length);
  });

  it("lists a session in the home directory with the user's commands as the user's", async () => {
    const home = temp();
    mkdirSync(join(home, '.claude', 'commands'), { recursive: true });
    writeFileSync(join(home, '.claude', 'commands', 'mine.md'), 'Mine');
    const commands = await slashCommands({ sessionDir: home, claudeConfigDir: join(home, '.claude') });
    expect(commands.filter((c) => c.source !== 'builtin')).toEqual([{ name: 'mine', description: 'Mine', source: 'user' }]);
  });
});
