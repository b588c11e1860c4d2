/**
 * The parsers of what tmux prints about its panes and sessions, under hostile names: a
 * directory, a process or a session may be named with tabs, newlines, controls and any
 * script, and tmux prints them as they are. A listing gives back exactly the panes tmux
 * listed, none forged by a name, and every pane keeps the shape the agent relies on.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type PaneInfo, paneListFormat, parsePaneListing, parseSessionName, parseTmuxVersion, sessionNameFor } from '../../agent/tmux/commands.js';
import { isPaneId, parseTmuxEnv } from '../../agent/outside/outside-tmux.js';
import { hostileChar, hostileString, RUNS } from './hostile.js';

/** The fields of `paneListFormat`, in order, as tmux substitutes them. */
const FIELDS = ['#{session_name}', '#{pane_id}', '#{pane_pid}', '#{pane_current_command}', '#{pane_current_path}', '#{window_width}', '#{window_height}'];

/** What tmux prints for `list-panes -F <paneListFormat(nonce)>`: the format per pane, each line ended by a newline. */
function listing(nonce: string, panes: readonly PaneInfo[]): string {
  const format = paneListFormat(nonce);
  const last = FIELDS[FIELDS.length - 1] as string;
  const separator = format.slice((FIELDS[0] as string).length, format.indexOf(FIELDS[1] as string));
  const terminator = format.slice(format.indexOf(last) + last.length);
  expect(FIELDS.join(separator) + terminator).toBe(format);
  return panes
    .map((pane) => {
      const values = [pane.session, pane.paneId, String(pane.panePid), pane.command, pane.path, String(pane.width), String(pane.height)];
      return `${values.join(separator)}${terminator}\n`;
    })
    .join('');
}

const nonce = fc.uint8Array({ minLength: 8, maxLength: 8 }).map((b) => Buffer.from(b).toString('hex'));

/** Names as a hostile directory or program would have them: separators of other listings included. */
const name = fc.oneof(
  hostileString,
  fc.string({ unit: fc.oneof(hostileChar, fc.constantFrom('\u001f', '\u001e', '\u001e0123', '%1', '\t', '\n')), maxLength: 30 }),
);

const pane: fc.Arbitrary<PaneInfo> = fc.record({
  session: name.filter((s) => s !== ''),
  paneId: fc.nat({ max: 100_000 }).map((n) => `%${n}`),
  panePid: fc.integer({ min: 1, max: 4_194_304 }),
  command: name,
  path: name,
  width: fc.integer({ min: 1, max: 10_000 }),
  height: fc.integer({ min: 1, max: 10_000 }),
});

function checkPane(p: PaneInfo): void {
  expect(p.session.length).toBeGreaterThan(0);
  expect(p.paneId).toMatch(/^%\d+$/);
  expect(Number.isInteger(p.panePid)).toBe(true);
  expect(Number.isInteger(p.width)).toBe(true);
  expect(Number.isInteger(p.height)).toBe(true);
  expect(typeof p.command).toBe('string');
  expect(typeof p.path).toBe('string');
}

describe('tmux listing parsers, by property', () => {
  it('gives back exactly the panes listed, whatever their names hold: no name forges or hides a pane', () => {
    fc.assert(
      fc.property(nonce, fc.array(pane, { maxLength: 6 }), (n, panes) => {
        // A name cannot know the nonce of a listing made after it; one holding it is no test.
        fc.pre(panes.every((p) => ![p.session, p.command, p.path].some((s) => s.includes(n))));
        expect(parsePaneListing(listing(n, panes), n)).toEqual(panes);
      }),
      { numRuns: RUNS },
    );
  });

  it('answers any output, or a listing garbled or cut, with panes of the right shape only', () => {
    const garbledListing = fc
      .tuple(nonce, fc.array(pane, { maxLength: 4 }), fc.nat(), fc.nat(), name)
      .map(([n, panes, cut, at, insert]) => {
        const text = listing(n, panes);
        const kept = text.slice(0, cut % (text.length + 1));
        const where = at % (kept.length + 1);
        return [n, `${kept.slice(0, where)}${insert}${kept.slice(where)}`] as const;
      });
    const anyOutput = fc.tuple(nonce, fc.oneof(hostileString, fc.string({ unit: fc.oneof(hostileChar, fc.constantFrom('\u001f', '\u001e', '%3', '7')), maxLength: 200 })));
    fc.assert(
      fc.property(fc.oneof(garbledListing, anyOutput), ([n, output]) => {
        for (const p of parsePaneListing(output, n)) checkPane(p);
      }),
      { numRuns: RUNS },
    );
  });

  it("reads a session name as a tab's only when it is exactly one the agent made", () => {
    const id = fc.stringMatching(/^[a-z0-9-]{1,64}$/);
    const sessionName = fc.oneof(
      fc.tuple(id, id).map(([w, t]) => sessionNameFor(w, t)),
      hostileString,
      fc.tuple(id, id, name).map(([w, t, extra]) => `${sessionNameFor(w, t)}${extra}`),
      fc.tuple(id, id, name).map(([w, t, extra]) => `${extra}${sessionNameFor(w, t)}`),
    );
    fc.assert(
      fc.property(sessionName, (s) => {
        const parsed = parseSessionName(s);
        if (parsed === null) return;
        expect(parsed.workspaceId).toMatch(/^[a-z0-9-]+$/);
        expect(parsed.tabId).toMatch(/^[a-z0-9-]+$/);
        expect(sessionNameFor(parsed.workspaceId, parsed.tabId)).toBe(s);
      }),
      { numRuns: RUNS },
    );
  });

  it("reads a hook's `$TMUX` and `$TMUX_PANE` headers back exactly, or not at all", () => {
    const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
    // Socket paths may hold commas (the numbers are taken from the right) and any script.
    const socketPath = fc
      .array(fc.oneof(fc.string({ unit: fc.oneof(hostileChar, fc.constantFrom(',', '1', ',-2')), maxLength: 12 }), fc.constantFrom('tmp', 'tmux-1000', 'default')), {
        minLength: 1,
        maxLength: 6,
      })
      .map((parts) => `/${parts.join('/')}`);
    const header = fc.oneof(
      fc.tuple(socketPath, fc.integer({ min: 0, max: 4_194_304 }), fc.integer({ min: -1, max: 1_000 })).map(([path, pid, index]) => `${path},${pid},${index}`),
      hostileString,
      fc.tuple(hostileString, fc.nat(), fc.integer()).map(([path, pid, index]) => `${path},${pid},${index}`),
    );
    fc.assert(
      fc.property(header, (value) => {
        const parsed = parseTmuxEnv(value);
        if (parsed === null) return;
        expect(parsed.socketPath.startsWith('/')).toBe(true);
        expect(parsed.socketPath.length).toBeLessThanOrEqual(1024);
        expect(parsed.socketPath).not.toMatch(CONTROL);
        expect(Number.isInteger(parsed.serverPid) && parsed.serverPid >= 0).toBe(true);
        // What was read is what tmux wrote: the path, then the two numbers.
        expect(value.startsWith(`${parsed.socketPath},${parsed.serverPid},`)).toBe(true);
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(socketPath, fc.integer({ min: 0, max: 4_194_304 }), fc.integer({ min: -1, max: 1_000 }), (path, pid, index) => {
        const expected = CONTROL.test(path) || path.length > 1024 ? null : { socketPath: path, serverPid: pid };
        expect(parseTmuxEnv(`${path},${pid},${index}`)).toEqual(expected);
      }),
      { numRuns: RUNS },
    );
    fc.assert(
      fc.property(fc.oneof(hostileString, fc.nat().map((n) => `%${n}`), fc.string({ unit: fc.constantFrom('%', '1', ' ', '\n'), maxLength: 12 })), (value) => {
        if (isPaneId(value)) expect(value).toMatch(/^%\d{1,9}$/);
      }),
      { numRuns: RUNS },
    );
  });

  it('reads any `tmux -V` output as a version of two numbers, neither negative nor NaN, or none', () => {
    // Short: the output is tmux's own, and a regular expression over tens of thousands of
    // digits with no dot takes seconds, which proves nothing about a version line.
    const short = fc.string({ unit: fc.oneof(hostileChar, fc.constantFrom('0', '9', '.', ' ')), maxLength: 40 });
    const output = fc.oneof(
      short,
      fc.string({ unit: 'binary', maxLength: 40 }),
      fc.tuple(fc.nat(99), fc.nat(99), short).map(([major, minor, rest]) => `tmux ${major}.${minor}${rest}`),
      fc.constantFrom('tmux 3.3a', 'tmux next-3.5', 'tmux 3.4-rc', 'tmux master', ''),
    );
    fc.assert(
      fc.property(output, (out) => {
        const version = parseTmuxVersion(out);
        if (version === null) return;
        // Digits only, so never negative or NaN; hundreds of them read as Infinity, which still
        // compares as a version should.
        expect(version.major).toBeGreaterThanOrEqual(0);
        expect(version.minor).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: RUNS },
    );
  });
});
