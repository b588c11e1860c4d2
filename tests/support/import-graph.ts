import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import ts from 'typescript';

/** One import of one of our files by another, both relative to the repository root. */
export interface ImportEdge {
  from: string;
  to: string;
}

/** Every `.ts` file under `dir` (relative to `root`), declarations excluded. */
export function sourceFiles(root: string, dir: string): string[] {
  const out: string[] = [];
  const walk = (abs: string): void => {
    for (const name of readdirSync(abs).sort()) {
      const path = join(abs, name);
      if (statSync(path).isDirectory()) {
        if (name !== 'node_modules') walk(path);
      } else if (name.endsWith('.ts') && !name.endsWith('.d.ts')) {
        out.push(relative(root, path).split(sep).join('/'));
      }
    }
  };
  walk(join(root, dir));
  return out;
}

/**
 * The imports between our own files: static imports, re-exports, `import type` and dynamic
 * `import()`, as TypeScript's own pre-processor finds them. A specifier naming a package is not
 * ours and is left out; a relative one is resolved from `.js` to the `.ts` beside it.
 */
export function importEdges(root: string, files: readonly string[]): ImportEdge[] {
  const edges: ImportEdge[] = [];
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const { importedFiles } = ts.preProcessFile(text, true, true);
    for (const { fileName } of importedFiles) {
      if (!fileName.startsWith('.')) continue;
      const target = resolve(root, dirname(file), fileName.replace(/\.js$/, '.ts'));
      edges.push({ from: file, to: relative(root, target).split(sep).join('/') });
    }
  }
  return edges;
}

/**
 * The room a file lives in: its first folder below `base` (`agent/http/routes/x.ts` is `http`),
 * or the file's own name when it sits directly in `base` (`agent/agent.ts` is `agent.ts`).
 */
export function roomOf(base: string, file: string): string {
  const rest = file.slice(base.length + 1);
  const slash = rest.indexOf('/');
  return slash < 0 ? rest : rest.slice(0, slash);
}

/**
 * The cycles among rooms, each as the rooms it joins and, for every import between two of them,
 * one file-level example, so a failure says which line to move. Tarjan's strongly connected
 * components over the room graph; a component of one room is no cycle.
 */
export function roomCycles(base: string, edges: readonly ImportEdge[]): { rooms: string[]; examples: string[] }[] {
  const graph = new Map<string, Map<string, ImportEdge>>();
  for (const edge of edges) {
    if (!edge.from.startsWith(`${base}/`) || !edge.to.startsWith(`${base}/`)) continue;
    const from = roomOf(base, edge.from);
    const to = roomOf(base, edge.to);
    if (from === to) continue;
    const out = graph.get(from) ?? new Map<string, ImportEdge>();
    if (!out.has(to)) out.set(to, edge);
    graph.set(from, out);
    if (!graph.has(to)) graph.set(to, new Map());
  }
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const components: string[][] = [];
  const visit = (node: string): void => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const target of graph.get(node)?.keys() ?? []) {
      if (!index.has(target)) {
        visit(target);
        low.set(node, Math.min(low.get(node) as number, low.get(target) as number));
      } else if (onStack.has(target)) {
        low.set(node, Math.min(low.get(node) as number, index.get(target) as number));
      }
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop() as string;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1) components.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return components.map((rooms) => {
    const inside = new Set(rooms);
    const examples: string[] = [];
    for (const from of rooms) {
      for (const [to, edge] of graph.get(from) ?? []) {
        if (inside.has(to)) examples.push(`${from} → ${to} (${edge.from} imports ${edge.to})`);
      }
    }
    return { rooms, examples };
  });
}

/** Every package a file imports (`zod`, `node:fs`, `lit`), as written, with the file that does. */
export function packageImports(root: string, files: readonly string[]): { from: string; specifier: string }[] {
  const out: { from: string; specifier: string }[] = [];
  for (const file of files) {
    const { importedFiles } = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    for (const { fileName } of importedFiles) if (!fileName.startsWith('.')) out.push({ from: file, specifier: fileName });
  }
  return out;
}
