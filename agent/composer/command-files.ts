/**
 * Custom slash commands from their files, pure: a command's name from its path under a
 * `commands/` folder, its description from its text, and the three sources merged. What is
 * read from disk, and how much, is `command-scan.ts`.
 */
import type { SlashCommandView } from '../../protocol/api.js';
import { visibleText } from '../../protocol/safe-text.js';

export const COMMAND_LIMITS = {
  /** Directory entries looked at per source. */
  entries: 500,
  /** Folders below `commands/` (`a/b/c.md` is at depth 2). */
  depth: 5,
  /** Bytes read of each file: frontmatter and a first line fit. */
  fileBytes: 8 * 1024,
  name: 100,
  description: 200,
} as const;

/** One path segment of a command: what a command name may hold, and no leading dot. */
const SEGMENT = /^[A-Za-z0-9_:-][A-Za-z0-9_.:-]*$/;
const NAME = /^[A-Za-z0-9_.:-]+$/;

/**
 * `frontend/review.md` → `frontend:review`. Null for anything that is not a command file or
 * whose name would hold other characters than letters, digits and `_ . : -` (a control or
 * bidi character, a space, a shell metacharacter), or be longer than 100 characters.
 */
export function commandName(relativePath: string): string | null {
  if (!relativePath.endsWith('.md')) return null;
  const segments = relativePath.slice(0, -'.md'.length).split('/');
  if (segments.some((s) => !SEGMENT.test(s))) return null;
  const name = segments.join(':');
  return name.length <= COMMAND_LIMITS.name && NAME.test(name) ? name : null;
}

/** Text shown to a person: control and bidi characters spelled out, at most `max` characters. */
export function boundedText(text: string, max: number = COMMAND_LIMITS.description): string | null {
  const visible = visibleText(text.trim());
  if (visible.length === 0) return null;
  const chars = Array.from(visible);
  return chars.length <= max ? visible : `${chars.slice(0, max - 1).join('')}…`;
}

/** A YAML scalar as one line: quotes removed (with their escapes), or a block's lines joined. */
function scalar(value: string, following: string[]): string {
  const v = value.trim();
  if (/^[|>][-+0-9]*$/.test(v)) {
    const block: string[] = [];
    for (const line of following) {
      if (line.trim() === '') continue;
      if (!/^\s/.test(line)) break;
      block.push(line.trim());
    }
    return block.join(' ');
  }
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) return v.slice(1, -1).replace(/\\(["\\])/g, '$1');
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replaceAll("''", "'");
  // A plain scalar ends at a comment.
  return v.replace(/\s+#.*$/, '');
}

/**
 * A command's description: the frontmatter's `description:` when it has one, else the first
 * non-empty line of the text after it. Null when there is neither, or when the frontmatter
 * never closes (the file was cut at the read limit, or is not what it seems).
 */
export function commandDescription(content: string): string | null {
  const lines = content.replace(/^\uFEFF/, '').split(/\r?\n/);
  let body = lines;
  if (lines[0]?.trim() === '---') {
    const close = lines.findIndex((l, i) => i > 0 && /^(---|\.\.\.)\s*$/.test(l));
    if (close < 0) return null;
    const front = lines.slice(1, close);
    for (let i = 0; i < front.length; i++) {
      const m = /^description\s*:(.*)$/.exec(front[i] as string);
      if (!m) continue;
      const described = boundedText(scalar(m[1] as string, front.slice(i + 1)));
      if (described) return described;
      break;
    }
    body = lines.slice(close + 1);
  }
  const first = body.find((l) => l.trim().length > 0);
  return first === undefined ? null : boundedText(first);
}

export interface CommandFile {
  /** Under the `commands/` folder, `/`-separated. */
  relativePath: string;
  /** Its first bytes (COMMAND_LIMITS.fileBytes), as UTF-8. */
  content: string;
}

/** The commands among files; one whose name is refused is left out. */
export function commandsFrom(files: readonly CommandFile[], source: 'project' | 'user'): SlashCommandView[] {
  const out: SlashCommandView[] = [];
  for (const file of files) {
    const name = commandName(file.relativePath);
    if (name) out.push({ name, description: commandDescription(file.content), source });
  }
  return out;
}

const byName = (a: SlashCommandView, b: SlashCommandView) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0);

/**
 * Project commands first, then the user's, then the built-in ones, each group by name; a
 * name comes once, from the first group that has it (a project command hides a user one).
 */
export function mergeCommands(...groups: readonly SlashCommandView[][]): SlashCommandView[] {
  const seen = new Set<string>();
  const out: SlashCommandView[] = [];
  for (const group of groups) {
    for (const command of [...group].sort(byName)) {
      if (seen.has(command.name)) continue;
      seen.add(command.name);
      out.push(command);
    }
  }
  return out;
}
