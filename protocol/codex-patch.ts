/**
 * Codex's patch format, as its `apply_patch` PermissionRequest carries it (`tool_input.command`,
 * captured with Codex 0.169.0 in tests/fixtures/codex-0.169.0/permission-request-patch.json):
 *
 *   *** Begin Patch
 *   *** Add File: b.txt          (then `+` lines)
 *   *** Update File: a.txt       (optionally `*** Move to: c.txt`, then `@@` hunks of ` `/`-`/`+` lines)
 *   *** Delete File: d.txt
 *   *** End Patch
 *
 * Read only to show the change on a card; Codex applies it. Text that is not such a patch
 * reads as null, and the card falls back to showing the input as it is.
 */

export interface PatchFile {
  op: 'add' | 'update' | 'delete';
  path: string;
  /** An update that also renames the file. */
  moveTo: string | null;
  /** Its lines, each starting with `+`, `-` or ` `, and `@@` between hunks. */
  lines: string[];
}

/** At most this many files are read from one patch: a card shows far fewer. */
const MAX_FILES = 200;

export function readCodexPatch(text: string): PatchFile[] | null {
  const lines = text.split('\n');
  if (lines[0]?.trim() !== '*** Begin Patch') return null;
  const files: PatchFile[] = [];
  let current: PatchFile | null = null;
  for (const line of lines.slice(1)) {
    const header = /^\*\*\* (Add|Update|Delete) File: (.+)$/.exec(line);
    if (header) {
      if (files.length >= MAX_FILES) break;
      current = { op: (header[1] as string).toLowerCase() as PatchFile['op'], path: header[2] as string, moveTo: null, lines: [] };
      files.push(current);
      continue;
    }
    if (line.trim() === '*** End Patch') return files.length > 0 ? files : null;
    if (!current) return null;
    const move = /^\*\*\* Move to: (.+)$/.exec(line);
    if (move && current.op === 'update') current.moveTo = move[1] as string;
    else if (line === '*** End of File') continue;
    else if (/^[+\- ]/.test(line) || line.startsWith('@@') || line === '') current.lines.push(line);
    else return null;
  }
  return null;
}

/** Lines added and removed over the whole patch. */
export function patchCounts(files: readonly PatchFile[]): { added: number; removed: number } {
  let added = 0;
  let removed = 0;
  for (const f of files) {
    for (const l of f.lines) {
      if (l.startsWith('+')) added++;
      else if (l.startsWith('-')) removed++;
    }
  }
  return { added, removed };
}
