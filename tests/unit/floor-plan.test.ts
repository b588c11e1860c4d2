import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { type ImportEdge, importEdges, packageImports, roomCycles, roomOf, sourceFiles } from '../support/import-graph.js';

// The floor plan of docs/architecture.md, held by the imports themselves. A new folder goes into
// one of these tables on purpose; a failure names the import that breaks the plan.

const root = fileURLToPath(new URL('../..', import.meta.url));
const files = [...sourceFiles(root, 'protocol'), ...sourceFiles(root, 'agent'), ...sourceFiles(root, 'pwa')];
const edges = importEdges(root, files);

function describeEdges(list: readonly ImportEdge[]): string[] {
  return list.map((edge) => `${edge.from} imports ${edge.to}`);
}

/**
 * agent/, bottom floor first. A room imports rooms on its own floor or below, never above, and
 * rooms on one floor never form a cycle.
 */
const AGENT_FLOORS: readonly (readonly string[])[] = [
  ['config', 'util'],
  ['tmux', 'auth', 'store'],
  ['approvals', 'push', 'outside', 'status', 'tabs', 'terminal', 'agents', 'claude', 'codex', 'composer', 'changes', 'machines', 'tailscale.ts', 'service'],
  ['wiring'],
  ['http', 'channels'],
  ['cli', 'agent.ts'],
];

/** pwa/: the app layer alone imports features; core and ui import no feature. */
const PWA_APP = ['app', 'sw.ts'];
const PWA_BELOW = ['core', 'ui'];
const PWA_FEATURES = ['inbox', 'sessions', 'tab', 'terminal', 'timeline', 'changes', 'workbench', 'settings', 'pairing', 'offline', 'push'];
/** The features one feature is built from (the tab screen holds the terminal and the timeline). */
const FEATURE_PARTS: Readonly<Record<string, readonly string[]>> = {
  tab: ['terminal', 'timeline', 'changes'],
  workbench: ['tab', 'terminal'],
  offline: ['inbox', 'sessions', 'timeline'],
  settings: ['pairing', 'push'],
};

describe('the floor plan', () => {
  it('finds the imports it checks', () => {
    expect(files.length).toBeGreaterThan(200);
    expect(edges.length).toBeGreaterThan(500);
  });

  it('protocol imports nothing of ours and no package but zod (and its mini build)', () => {
    const out = edges.filter((edge) => edge.from.startsWith('protocol/') && !edge.to.startsWith('protocol/'));
    expect(describeEdges(out)).toEqual([]);
    const packages = packageImports(root, sourceFiles(root, 'protocol')).filter((p) => p.specifier !== 'zod' && p.specifier !== 'zod/mini');
    expect(packages.map((p) => `${p.from} imports ${p.specifier}`)).toEqual([]);
  });

  it('agent and pwa never import each other', () => {
    const crossing = edges.filter(
      (edge) =>
        (edge.from.startsWith('agent/') && edge.to.startsWith('pwa/')) ||
        (edge.from.startsWith('pwa/') && edge.to.startsWith('agent/')),
    );
    expect(describeEdges(crossing)).toEqual([]);
  });

  it('every room of agent/ stands on a floor', () => {
    const placed = new Set(AGENT_FLOORS.flat());
    const rooms = new Set(files.filter((f) => f.startsWith('agent/')).map((f) => roomOf('agent', f)));
    expect([...rooms].filter((room) => !placed.has(room))).toEqual([]);
  });

  it('no room of agent/ imports a room on a floor above it', () => {
    const floor = new Map<string, number>();
    AGENT_FLOORS.forEach((rooms, level) => {
      for (const room of rooms) floor.set(room, level);
    });
    const upward = edges.filter((edge) => {
      if (!edge.from.startsWith('agent/') || !edge.to.startsWith('agent/')) return false;
      const from = floor.get(roomOf('agent', edge.from));
      const to = floor.get(roomOf('agent', edge.to));
      return from !== undefined && to !== undefined && to > from;
    });
    expect(describeEdges(upward)).toEqual([]);
  });

  it('no folder cycle in agent/', () => {
    expect(roomCycles('agent', edges)).toEqual([]);
  });

  it('every room of pwa/ is the app, a feature, core or ui', () => {
    const placed = new Set([...PWA_APP, ...PWA_BELOW, ...PWA_FEATURES]);
    const rooms = new Set(files.filter((f) => f.startsWith('pwa/')).map((f) => roomOf('pwa', f)));
    expect([...rooms].filter((room) => !placed.has(room))).toEqual([]);
  });

  it('core and ui import no feature and not the app; features import no other feature but their parts, and not the app', () => {
    const wrong = edges.filter((edge) => {
      if (!edge.from.startsWith('pwa/') || !edge.to.startsWith('pwa/')) return false;
      const from = roomOf('pwa', edge.from);
      const to = roomOf('pwa', edge.to);
      if (from === to) return false;
      if (PWA_APP.includes(to)) return true;
      if (PWA_BELOW.includes(from)) return !PWA_BELOW.includes(to);
      if (PWA_FEATURES.includes(from) && PWA_FEATURES.includes(to)) return !(FEATURE_PARTS[from] ?? []).includes(to);
      return false;
    });
    expect(describeEdges(wrong)).toEqual([]);
  });

  it('no folder cycle in pwa/', () => {
    expect(roomCycles('pwa', edges)).toEqual([]);
  });
});
