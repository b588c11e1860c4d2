/**
 * Turns a Claude Code PermissionRequest hook payload into what a phone card shows: a title,
 * Claude's own words, the command or input, a diff for file edits, the questions of an
 * AskUserQuestion, and Claude's "always allow" suggestion in words.
 *
 * Pure and total: the payload comes from outside (Claude, or anything that can reach the hook
 * route), so every field is checked before use, wrong shapes are skipped rather than
 * reported, and every string that leaves here is bounded and has its control characters
 * written out as escapes. A card that shows less is fine; a card that cannot be built would
 * leave Claude waiting on a hook nobody can answer.
 */
import type { ApprovalKind, ApprovalQuestion, ApprovalSummary, QuestionOption } from '../../protocol/approvals.js';
import type { HookPayload } from '../../protocol/hooks.js';
import { DECISION_LIMITS } from '../../protocol/limits.js';
import { clipText, firstLine } from '../../protocol/timeline.js';
import { type PatchFile, patchCounts, readCodexPatch } from '../../protocol/codex-patch.js';
import { cardText } from '../util/card-text.js';

export type PermissionRequestPayload = HookPayload & { hook_event_name: 'PermissionRequest' };

export interface RequestDescription {
  kind: ApprovalKind;
  /** The tool's name as Claude gave it, bounded. */
  tool: string;
  summary: ApprovalSummary;
  /** For `question`: what Claude asks, in order; empty for every other kind. */
  questions: ApprovalQuestion[];
  /** Claude's own text of each question and its labels, parallel to `questions`: answers are keyed by these. */
  questionKeys: QuestionKeys[];
  /** Claude's permission suggestions in words, or null when it made none we can read. */
  alwaysAllow: string | null;
}

/** Size bounds, in UTF-16 code units (or lines, or items), of what a card carries. */
export const SUMMARY_LIMITS = {
  title: 200,
  /** The command, path, URL or question inside a title. */
  hint: 80,
  description: 1_000,
  /** Compact JSON of an input, a URL with its prompt. */
  body: 2_000,
  /** A Bash command in full: people approve what they can read, so it gets more room. */
  command: 8_000,
  plan: 8_000,
  path: 4_096,
  diffLines: 80,
  diffLine: 200,
  questions: 8,
  options: 16,
  /** The question text is the key of its answer, so it is bounded as an answer is. */
  question: DECISION_LIMITS.answer,
  header: 100,
  label: 500,
  optionDescription: 1_000,
  alwaysAllow: 500,
  tool: 200,
} as const;

/** Deeper than any tool input Claude Code sends; past it a card shows `"…"`. */
const MAX_JSON_DEPTH = 8;
/** Rules or directories named in one suggestion before "and N more". */
const MAX_SUGGESTION_ITEMS = 8;

/** The first non-empty line of `text`, cut to about `max`, safe for a title. */
function hint(text: string, max: number = SUMMARY_LIMITS.hint): string {
  return cardText(firstLine(text, max), max + 1, true);
}

function title(text: string): string {
  return cardText(text, SUMMARY_LIMITS.title, true);
}

/**
 * Compact JSON of `value`, at most `max` code units, ending in `…` when cut. Written piece by
 * piece and stopped as soon as the budget is spent, so a huge or deeply nested input costs
 * about `max` of work, not its own size; strings are cut before they are quoted. Values JSON
 * has no form for are written as `JSON.stringify` would (`null`, or the key left out), but a
 * bigint as its digits rather than a throw.
 */
export function compactJson(value: unknown, max: number = SUMMARY_LIMITS.body): string {
  const parts: string[] = [];
  let length = 0;
  /** False once the budget is spent: every caller stops writing. */
  const write = (s: string): boolean => {
    parts.push(s);
    length += s.length;
    return length <= max;
  };
  const quote = (s: string): string => JSON.stringify(clipText(s, max - length + 1).text);
  const walk = (v: unknown, depth: number): boolean => {
    switch (typeof v) {
      case 'string':
        return write(quote(v));
      case 'number':
        return write(Number.isFinite(v) ? String(v) : 'null');
      case 'boolean':
        return write(v ? 'true' : 'false');
      case 'bigint':
        return write(v.toString());
      case 'object':
        break;
      default:
        return write('null');
    }
    if (v === null) return write('null');
    if (depth >= MAX_JSON_DEPTH) return write('"…"');
    if (Array.isArray(v)) {
      if (!write('[')) return false;
      for (let i = 0; i < v.length; i++) {
        if (i > 0 && !write(',')) return false;
        if (!walk(v[i], depth + 1)) return false;
      }
      return write(']');
    }
    if (!write('{')) return false;
    let first = true;
    for (const key in v) {
      if (!Object.hasOwn(v, key)) continue;
      const item = (v as Record<string, unknown>)[key];
      if (item === undefined || typeof item === 'function' || typeof item === 'symbol') continue;
      if (!first && !write(',')) return false;
      first = false;
      if (!write(`${quote(key)}:`)) return false;
      if (!walk(item, depth + 1)) return false;
    }
    return write('}');
  };
  walk(value, 0);
  return cardText(parts.join(''), max);
}

/** Lines of a text a diff shows: no line ending kept, and no empty line after a final newline. */
function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((l) => (l.endsWith('\r') ? l.slice(0, -1) : l));
}

/**
 * Diff lines bounded as they are added: past the limit only a count is kept, so a Write of a
 * file with a hundred thousand lines formats eighty of them.
 */
class DiffLines {
  readonly lines: string[] = [];
  private more = 0;

  add(prefix: '+' | '-' | ' ', lines: readonly string[], from = 0, to = lines.length): void {
    for (let i = from; i < to; i++) {
      if (this.lines.length >= SUMMARY_LIMITS.diffLines) {
        this.more += to - i;
        return;
      }
      this.lines.push(prefix + cardText(lines[i] ?? '', SUMMARY_LIMITS.diffLine));
    }
  }

  /** A line that names what follows (a patch's next file): a gap line, `… name`. */
  gap(name: string): void {
    if (this.lines.length >= SUMMARY_LIMITS.diffLines) this.more++;
    else this.lines.push(`… ${cardText(name, SUMMARY_LIMITS.diffLine)}`);
  }

  /** Between the hunks of a MultiEdit: like the final line, it starts with `…`. */
  separate(): void {
    if (this.lines.length === 0) return;
    if (this.lines.length >= SUMMARY_LIMITS.diffLines) this.more++;
    else this.lines.push('…');
  }

  /**
   * One edit as a block: the lines both sides share at the start and the end are dropped but
   * for one line of context each side, so a one-line change in a large `old_string` shows as
   * three or four lines. No line-by-line matching inside the block: an approval card needs
   * to show what changes, not the smallest diff.
   */
  hunk(oldText: string, newText: string): void {
    const a = splitLines(oldText);
    const b = splitLines(newText);
    let start = 0;
    while (start < a.length && start < b.length && a[start] === b[start]) start++;
    let endA = a.length;
    let endB = b.length;
    while (endA > start && endB > start && a[endA - 1] === b[endB - 1]) {
      endA--;
      endB--;
    }
    if (start > 0) this.add(' ', a, start - 1, start);
    this.add('-', a, start, endA);
    this.add('+', b, start, endB);
    if (endA < a.length) this.add(' ', a, endA, endA + 1);
  }

  done(): string[] {
    if (this.more > 0) this.lines.push(`… ${this.more} more line${this.more === 1 ? '' : 's'}`);
    return this.lines;
  }
}

type Fields = Record<string, unknown>;

function isRecord(value: unknown): value is Fields {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A string field that says something, or undefined. */
function text(fields: Fields, key: string): string | undefined {
  const v = fields[key];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** A path as a title shows it: relative to Claude's directory when inside it, and its end when long. */
function shortPath(path: string, cwd: string | undefined): string {
  let shown = path;
  if (cwd !== undefined && cwd !== '' && cwd !== '/') {
    const prefix = cwd.endsWith('/') ? cwd : `${cwd}/`;
    if (path.startsWith(prefix) && path.length > prefix.length) shown = path.slice(prefix.length);
  }
  // The file name is what a person looks for, so a long path loses its start, not its end.
  if (shown.length > SUMMARY_LIMITS.hint) shown = `…${shown.slice(shown.length - (SUMMARY_LIMITS.hint - 1))}`;
  return cardText(firstLine(shown, SUMMARY_LIMITS.hint), SUMMARY_LIMITS.hint + 1, true);
}

function summary(part: Partial<ApprovalSummary> & { title: string }): ApprovalSummary {
  return { description: null, body: null, diff: null, path: null, ...part };
}

function inputBody(input: unknown): string | null {
  if (input === undefined || (isRecord(input) && Object.keys(input).length === 0)) return null;
  return compactJson(input);
}

interface Request {
  tool: string;
  input: Fields;
  raw: unknown;
  cwd: string | undefined;
}

/** The card of a tool without its own; also what a known tool falls back to when its input is not what it should be. */
function genericSummary({ tool, input, raw, cwd }: Request): ApprovalSummary {
  const pattern = text(input, 'pattern');
  const dir = text(input, 'path');
  const filePath = text(input, 'file_path') ?? text(input, 'notebook_path');
  const shown =
    (pattern !== undefined && dir !== undefined ? `${pattern} in ${dir}` : undefined) ??
    pattern ??
    dir ??
    text(input, 'url') ??
    text(input, 'command') ??
    text(input, 'query');
  const named = filePath !== undefined ? shortPath(filePath, cwd) : shown !== undefined ? hint(shown) : undefined;
  return summary({
    title: title(named === undefined ? tool : `${tool} ${named}`),
    body: inputBody(raw),
    path: filePath === undefined ? null : cardText(filePath, SUMMARY_LIMITS.path, true),
  });
}

function bashSummary({ input }: Request): ApprovalSummary | null {
  const command = text(input, 'command');
  if (command === undefined) return null;
  const description = text(input, 'description');
  return summary({
    title: title(`Bash: ${hint(command)}`),
    description: description === undefined ? null : cardText(description, SUMMARY_LIMITS.description),
    body: cardText(command, SUMMARY_LIMITS.command),
  });
}

function fileSummary(verb: string, path: string, cwd: string | undefined, diff: DiffLines, description: string | null = null): ApprovalSummary {
  return summary({
    title: title(`${verb} ${shortPath(path, cwd)}`),
    description,
    diff: diff.done(),
    path: cardText(path, SUMMARY_LIMITS.path, true),
  });
}

function editSummary({ input, cwd }: Request): ApprovalSummary | null {
  const path = text(input, 'file_path');
  const { old_string: oldText, new_string: newText } = input;
  if (path === undefined || typeof oldText !== 'string' || typeof newText !== 'string') return null;
  const diff = new DiffLines();
  diff.hunk(oldText, newText);
  return fileSummary('Edit', path, cwd, diff, input.replace_all === true ? 'Replaces every occurrence' : null);
}

function multiEditSummary({ input, cwd }: Request): ApprovalSummary | null {
  const path = text(input, 'file_path');
  if (path === undefined || !Array.isArray(input.edits)) return null;
  const diff = new DiffLines();
  let edits = 0;
  for (const edit of input.edits) {
    if (!isRecord(edit) || typeof edit.old_string !== 'string' || typeof edit.new_string !== 'string') continue;
    diff.separate();
    diff.hunk(edit.old_string, edit.new_string);
    edits++;
  }
  if (edits === 0) return null;
  return fileSummary('Edit', path, cwd, diff, edits === 1 ? null : `${edits} edits`);
}

function writeSummary({ input, cwd }: Request): ApprovalSummary | null {
  const path = text(input, 'file_path');
  if (path === undefined || typeof input.content !== 'string') return null;
  const diff = new DiffLines();
  diff.add('+', splitLines(input.content));
  return fileSummary('Write', path, cwd, diff);
}

function notebookSummary({ input, cwd }: Request): ApprovalSummary | null {
  const path = text(input, 'notebook_path');
  if (path === undefined) return null;
  const id = text(input, 'cell_id');
  const cell = id === undefined ? undefined : cardText(id, SUMMARY_LIMITS.hint, true);
  const mode = input.edit_mode;
  const diff = new DiffLines();
  if (mode !== 'delete' && typeof input.new_source === 'string') diff.add('+', splitLines(input.new_source));
  let what: string;
  if (mode === 'delete') what = cell === undefined ? 'Delete a cell' : `Delete cell ${cell}`;
  else if (mode === 'insert') what = cell === undefined ? 'Insert a cell at the start' : `Insert a cell after ${cell}`;
  else what = cell === undefined ? 'Replace a cell' : `Replace cell ${cell}`;
  return fileSummary('Edit', path, cwd, diff, what);
}

const PATCH_OP_WORDS: Record<PatchFile['op'], string> = { add: 'Add', update: 'Edit', delete: 'Delete' };

/** A file of a patch as its card names it: `a.txt`, `b.txt (new)`, `a.txt → c.txt`, `d.txt (deleted)`. */
function patchFileName(file: PatchFile, cwd: string | undefined): string {
  const path = shortPath(file.path, cwd);
  if (file.moveTo !== null) return `${path} → ${shortPath(file.moveTo, cwd)}`;
  return file.op === 'add' ? `${path} (new)` : file.op === 'delete' ? `${path} (deleted)` : path;
}

/** Codex's `apply_patch`: the files it adds, edits and deletes, with their lines, as an Edit's card shows one. */
function patchSummary({ input, cwd }: Request): ApprovalSummary | null {
  const patch = text(input, 'command');
  const files = patch === undefined ? null : readCodexPatch(patch);
  if (!files) return null;
  const { added, removed } = patchCounts(files);
  const diff = new DiffLines();
  for (const file of files) {
    // One file is named by the title; each of several by a gap line before its lines.
    if (files.length > 1) diff.gap(patchFileName(file, cwd));
    let lines = 0;
    for (const line of file.lines) {
      // A file's first hunk follows its name; the ones after it are set apart.
      if (line.startsWith('@@')) {
        if (lines > 0) diff.separate();
        continue;
      }
      lines++; diff.add((line[0] === '+' || line[0] === '-' ? line[0] : ' ') as '+' | '-' | ' ', [line.slice(1)]);
    }
  }
  const [first] = files;
  const named = files.length === 1 && first ? `${PATCH_OP_WORDS[first.op]} ${first.moveTo === null ? shortPath(first.path, cwd) : patchFileName(first, cwd)}` : `Edit ${files.length} files: ${files.map((f) => shortPath(f.path, cwd)).join(', ')}`;
  return summary({
    title: title(`Patch: ${named}`),
    description: `+${added} −${removed}`,
    diff: diff.done(),
    path: files.length === 1 && first ? cardText(first.path, SUMMARY_LIMITS.path, true) : null,
  });
}

function webFetchSummary({ input }: Request): ApprovalSummary | null {
  const url = text(input, 'url');
  if (url === undefined) return null;
  const prompt = text(input, 'prompt');
  const half = SUMMARY_LIMITS.body / 2;
  return summary({
    title: title(`WebFetch ${hint(url)}`),
    body: prompt === undefined ? cardText(url, half) : `${cardText(url, half)}\n\n${cardText(prompt, half)}`,
  });
}

function domains(value: unknown): string | null {
  if (!Array.isArray(value)) return null;
  const names = value.slice(0, MAX_SUGGESTION_ITEMS).filter((d): d is string => typeof d === 'string' && d !== '');
  if (names.length === 0) return null;
  const more = value.length > MAX_SUGGESTION_ITEMS ? ` and ${value.length - MAX_SUGGESTION_ITEMS} more` : '';
  return `${names.map((d) => cardText(d, SUMMARY_LIMITS.hint, true)).join(', ')}${more}`;
}

function webSearchSummary({ input }: Request): ApprovalSummary | null {
  const query = text(input, 'query');
  if (query === undefined) return null;
  const only = domains(input.allowed_domains);
  const not = domains(input.blocked_domains);
  const lines = [cardText(query, SUMMARY_LIMITS.body)];
  if (only !== null) lines.push(`Only from: ${only}`);
  if (not !== null) lines.push(`Not from: ${not}`);
  return summary({ title: title(`WebSearch ${hint(query)}`), body: lines.join('\n') });
}

/** `mcp__<server>__<tool>`: the server's name cannot hold `__`, the tool's may. */
function mcpSummary({ tool, raw }: Request): ApprovalSummary | null {
  const rest = tool.slice('mcp__'.length);
  const split = rest.indexOf('__');
  if (split <= 0 || split + 2 >= rest.length) return null;
  const server = rest.slice(0, split);
  const name = rest.slice(split + 2);
  return summary({ title: title(`MCP ${hint(server)} › ${hint(name)}`), body: inputBody(raw) });
}

function planSummary({ input }: Request): ApprovalSummary {
  // 2.1.332 sends `{}` (the plan is in the transcript); other versions have sent the plan itself.
  const plan = text(input, 'plan');
  return summary({ title: 'Exit plan mode?', body: plan === undefined ? null : cardText(plan, SUMMARY_LIMITS.plan) });
}

/**
 * The questions of an AskUserQuestion that have the shape Claude documents; any other item is
 * left out, not guessed at. An option needs a label (it is what the answer carries).
 */
/**
 * A question as Claude wrote it: a card shows it bounded and escaped, but Claude takes its
 * answers keyed by the exact question text, with the exact label.
 */
export interface QuestionKeys {
  question: string;
  labels: string[];
}

export function readQuestions(input: unknown): ApprovalQuestion[] {
  return readQuestionsWithKeys(input).questions;
}

function readQuestionsWithKeys(input: unknown): { questions: ApprovalQuestion[]; keys: QuestionKeys[] } {
  const questions: ApprovalQuestion[] = [];
  const keys: QuestionKeys[] = [];
  if (!isRecord(input) || !Array.isArray(input.questions)) return { questions, keys };
  for (const item of input.questions.slice(0, SUMMARY_LIMITS.questions * 4)) {
    if (questions.length === SUMMARY_LIMITS.questions) break;
    if (!isRecord(item)) continue;
    const question = text(item, 'question');
    if (question === undefined) continue;
    const header = text(item, 'header');
    const options: QuestionOption[] = [];
    const labels: string[] = [];
    if (Array.isArray(item.options)) {
      for (const option of item.options.slice(0, SUMMARY_LIMITS.options * 4)) {
        if (options.length === SUMMARY_LIMITS.options) break;
        if (!isRecord(option)) continue;
        const label = text(option, 'label');
        if (label === undefined) continue;
        const description = text(option, 'description');
        labels.push(label);
        options.push({
          label: cardText(label, SUMMARY_LIMITS.label, true),
          description: description === undefined ? null : cardText(description, SUMMARY_LIMITS.optionDescription),
        });
      }
    }
    questions.push({
      question: cardText(question, SUMMARY_LIMITS.question),
      header: header === undefined ? null : cardText(header, SUMMARY_LIMITS.header, true),
      options,
      multiSelect: item.multiSelect === true,
    });
    keys.push({ question, labels });
  }
  return { questions, keys };
}

function questionSummary(request: Request, questions: ApprovalQuestion[]): ApprovalSummary {
  const first = questions[0];
  // With nothing readable the card still shows the input, so the person can answer in the terminal.
  if (first === undefined) return summary({ title: title(request.tool), body: inputBody(request.raw) });
  return summary({ title: title(hint(first.question)) });
}

const DESTINATIONS: Record<string, string> = {
  session: 'this session',
  localSettings: 'this project, local settings',
  projectSettings: 'this project, shared settings',
  userSettings: 'all projects, user settings',
  cliArg: 'command line',
};

const MODES: Record<string, string> = {
  default: 'default',
  acceptEdits: 'accept edits',
  plan: 'plan',
  bypassPermissions: 'bypass permissions',
  dontAsk: "don't ask",
  auto: 'auto',
};

/** `table[key]` for the table's own keys only: `constructor` from outside must not find Object's. */
function lookup<T>(table: Record<string, T>, key: unknown): T | undefined {
  return typeof key === 'string' && Object.hasOwn(table, key) ? table[key] : undefined;
}

/** Up to `MAX_SUGGESTION_ITEMS` readable items, "and N more" for the rest; null when none reads. */
function listOf(items: unknown, read: (item: unknown) => string | null): string | null {
  if (!Array.isArray(items)) return null;
  const shown: string[] = [];
  let more = 0;
  for (const item of items.slice(0, MAX_SUGGESTION_ITEMS * 4)) {
    const words = read(item);
    if (words === null) continue;
    if (shown.length < MAX_SUGGESTION_ITEMS) shown.push(words);
    else more++;
  }
  more += Math.max(0, items.length - MAX_SUGGESTION_ITEMS * 4);
  if (shown.length === 0) return null;
  return more > 0 ? `${shown.join(', ')} and ${more} more` : shown.join(', ');
}

/** `Bash(npm test:*)`, or `WebSearch` for a rule on a whole tool. */
function ruleWords(rule: unknown): string | null {
  if (!isRecord(rule)) return null;
  const tool = text(rule, 'toolName');
  if (tool === undefined) return null;
  const content = text(rule, 'ruleContent');
  const name = cardText(tool, SUMMARY_LIMITS.hint, true);
  return content === undefined ? name : `${name}(${cardText(content, SUMMARY_LIMITS.hint * 2, true)})`;
}

function directoryWords(dir: unknown): string | null {
  return typeof dir === 'string' && dir !== '' ? cardText(dir, SUMMARY_LIMITS.hint * 2, true) : null;
}

/** One of Claude's `PermissionUpdate` suggestions in words, or null for a shape not known here. */
function suggestionWords(suggestion: unknown): string | null {
  if (!isRecord(suggestion)) return null;
  const where = lookup(DESTINATIONS, suggestion.destination);
  const scoped = (words: string): string => (where === undefined ? words : `${words} (${where})`);
  const behavior = suggestion.behavior;
  switch (suggestion.type) {
    case 'addRules':
    case 'replaceRules': {
      const rules = listOf(suggestion.rules, ruleWords);
      if (rules === null) return null;
      const verb = behavior === 'deny' ? 'Always deny' : behavior === 'ask' ? 'Always ask before' : 'Always allow';
      return scoped(suggestion.type === 'addRules' ? `${verb} ${rules}` : `${verb} only ${rules}`);
    }
    case 'removeRules': {
      const rules = listOf(suggestion.rules, ruleWords);
      if (rules === null) return null;
      const kind = behavior === 'deny' || behavior === 'ask' ? behavior : 'allow';
      return scoped(`Remove the ${kind} rule for ${rules}`);
    }
    case 'addDirectories': {
      const dirs = listOf(suggestion.directories, directoryWords);
      return dirs === null ? null : scoped(`Always allow access to ${dirs}`);
    }
    case 'removeDirectories': {
      const dirs = listOf(suggestion.directories, directoryWords);
      return dirs === null ? null : scoped(`Remove access to ${dirs}`);
    }
    case 'setMode': {
      const mode = suggestion.mode;
      if (typeof mode !== 'string' || mode.trim() === '') return null;
      const name = lookup(MODES, mode) ?? cardText(mode, 40, true);
      // A mode is switched for the session nearly always; saying so would only add words.
      const words = `Switch to ${name} mode`;
      return where === undefined || suggestion.destination === 'session' ? words : `${words} (${where})`;
    }
    default:
      return null;
  }
}

/**
 * Claude's `permission_suggestions` in words, as the card's "always" choice: "Always allow
 * access to /opt/hooks (this session)". Several suggestions are applied together, so they
 * are joined; shapes not known here are left out, and null means nothing could be read.
 */
export function describeSuggestions(suggestions: unknown): string | null {
  if (!Array.isArray(suggestions)) return null;
  const words: string[] = [];
  for (const s of suggestions.slice(0, MAX_SUGGESTION_ITEMS)) {
    const w = suggestionWords(s);
    if (w !== null) words.push(w);
  }
  return words.length === 0 ? null : cardText(words.join('; '), SUMMARY_LIMITS.alwaysAllow, true);
}

const DESCRIBERS: Record<string, (request: Request) => ApprovalSummary | null> = {
  Bash: bashSummary,
  Edit: editSummary,
  MultiEdit: multiEditSummary,
  Write: writeSummary,
  NotebookEdit: notebookSummary,
  WebFetch: webFetchSummary,
  // Codex's patch tool (no Claude tool has this name).
  apply_patch: patchSummary,
  WebSearch: webSearchSummary,
};

function kindOf(tool: string): ApprovalKind {
  if (tool === 'AskUserQuestion') return 'question';
  if (tool === 'ExitPlanMode') return 'plan';
  return 'permission';
}

/**
 * What a card shows for a PermissionRequest. Never throws: the payload is parsed JSON, which
 * nothing here should fail on, and the catch keeps a card showing (with the tool's name) if
 * some shape ever proves that wrong, since without a card the request can only be answered
 * in the terminal.
 */
export function describeRequest(payload: PermissionRequestPayload): RequestDescription {
  const p: Fields = isRecord(payload) ? payload : {};
  const name = typeof p.tool_name === 'string' && p.tool_name.trim() !== '' ? p.tool_name : 'Unknown tool';
  const tool = cardText(name, SUMMARY_LIMITS.tool, true);
  const kind = kindOf(name);
  try {
    const raw = p.tool_input;
    const request: Request = {
      tool,
      input: isRecord(raw) ? raw : {},
      raw,
      cwd: typeof p.cwd === 'string' ? p.cwd : undefined,
    };
    const { questions, keys } = kind === 'question' ? readQuestionsWithKeys(raw) : { questions: [], keys: [] };
    let card: ApprovalSummary | null;
    if (kind === 'question') card = questionSummary(request, questions);
    else if (kind === 'plan') card = planSummary(request);
    else if (name.startsWith('mcp__')) card = mcpSummary(request);
    else card = lookup(DESCRIBERS, name)?.(request) ?? null;
    return {
      kind,
      tool,
      summary: card ?? genericSummary(request),
      questions,
      questionKeys: keys,
      alwaysAllow: describeSuggestions(p.permission_suggestions),
    };
  } catch {
    return { kind, tool, summary: summary({ title: title(tool) }), questions: [], questionKeys: [], alwaysAllow: null };
  }
}
