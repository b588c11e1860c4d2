/**
 * Review's costs, each beside a peer in the same rounds: a prompt's hook while the turn's start
 * is recorded (beside the same hook from a folder outside git), a turn's changes listed when it
 * touched 100 files (beside `git status` and `git diff --numstat` run directly, what a person
 * would type), one 2,000-line file's diff (beside `git diff` of it), and in Chromium, on the
 * phone profile, a tap on that file to its diff painted, with the Changes view's chunk as sent.
 */
import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { brotliCompressSync } from 'node:zlib';
import { type AgentHandle, cleanupAgents, REPO_ROOT, startAgent } from '../support/agent.js';
import { launchBrowser, PHONE, pairBrowser } from '../support/browser.js';
import { api, claim } from '../support/client.js';
import { quantile } from '../support/stats.js';
import { gitAsync as git } from '../support/git.js';

export const REVIEW_BENCH = {
  /** Files the turn changed, and lines in each. */
  FILES: 100,
  FILE_LINES: 40,
  /** Lines of the large file, one in ten changed. */
  BIG_LINES: 2000,
  ROUNDS: 30,
  WARMUP: 3,
  /** Taps on the large file in the browser. */
  PAINTS: 7,
} as const;

export const REVIEW_HEADING = 'Review';

export interface Times {
  p50: number;
  p99: number;
}

export interface ReviewBenchResult {
  promptRecorded: Times;
  promptOutsideGit: Times;
  list: Times;
  listPeer: Times;
  fileDiff: Times;
  fileDiffPeer: Times;
  /** Tap on the file → its diff's rows painted, each tap. */
  paintMs: number[];
  chunkBytes: number;
  chunkFile: string;
}

const times = (values: number[]): Times => ({ p50: quantile(values, 0.5), p99: quantile(values, 0.99) });

function lines(n: number, seed: string): string {
  return `${Array.from({ length: n }, (_, i) => `export const ${seed}_${i} = ${i * 7} + compute("${seed}", ${i});`).join('\n')}\n`;
}

export async function reviewBench(progress: (what: string) => void): Promise<ReviewBenchResult> {
  const agent = await startAgent();
  try {
    return await measure(agent, progress);
  } finally {
    await cleanupAgents();
  }
}

async function measure(agent: AgentHandle, progress: (what: string) => void): Promise<ReviewBenchResult> {
  const repo = join(agent.root, 'repo');
  const plain = join(agent.root, 'plain');
  mkdirSync(join(repo, 'src'), { recursive: true });
  mkdirSync(plain, { recursive: true });
  for (let f = 0; f < REVIEW_BENCH.FILES; f++) writeFileSync(join(repo, 'src', `module-${f}.ts`), lines(REVIEW_BENCH.FILE_LINES, `m${f}`));
  writeFileSync(join(repo, 'big.ts'), lines(REVIEW_BENCH.BIG_LINES, 'big'));
  await git(repo, 'init', '-q', '-b', 'main');
  await git(repo, 'add', '-A');
  await git(repo, 'commit', '-q', '-m', 'start');

  const token = readFileSync(join(agent.dataDir, 'hook-token'), 'utf8').trim();
  const keepAlive = new Agent({ keepAlive: true, maxSockets: 4 });
  const post = (path: string, body: unknown) =>
    new Promise<void>((resolve, reject) => {
      const req = request(new URL(path, agent.url), { method: 'POST', agent: keepAlive, headers: { 'content-type': 'application/json', 'x-pocketmux-token': token } }, (res) => {
        res.resume();
        res.on('end', () => resolve());
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  const session = await claim(agent, 'bench');
  const get = async (path: string): Promise<unknown> => {
    const res = await api<unknown>(session, 'GET', path);
    if (res.status !== 200) throw new Error(`${path}: HTTP ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  };
  const sessionId = '0b5e7a11-0000-4000-8000-000000000001';
  const plainId = '0b5e7a11-0000-4000-8000-000000000002';
  const key = `outside-${sessionId}`;
  const hook = (id: string, cwd: string, event: string, extra: Record<string, unknown> = {}) => ({ session_id: id, transcript_path: join(agent.root, `${id}.jsonl`), cwd, hook_event_name: event, ...extra });
  await post('/hooks/SessionStart', hook(sessionId, repo, 'SessionStart', { source: 'startup' }));
  await post('/hooks/SessionStart', hook(plainId, plain, 'SessionStart', { source: 'startup' }));

  progress(`review: a prompt's hook recording the turn's start (${REVIEW_BENCH.FILES + 1} files) beside one from a folder outside git`);
  const recorded: number[] = [];
  const outside: number[] = [];
  for (let r = 0; r < REVIEW_BENCH.WARMUP + REVIEW_BENCH.ROUNDS; r++) {
    const order = r % 2 === 0 ? ['repo', 'plain'] : ['plain', 'repo'];
    for (const which of order) {
      const t0 = performance.now();
      if (which === 'repo') await post('/hooks/UserPromptSubmit', hook(sessionId, repo, 'UserPromptSubmit', { prompt: `round ${r}` }));
      else await post('/hooks/UserPromptSubmit', hook(plainId, plain, 'UserPromptSubmit', { prompt: `round ${r}` }));
      if (r >= REVIEW_BENCH.WARMUP) (which === 'repo' ? recorded : outside).push(performance.now() - t0);
    }
  }

  // The turn: every module gets a line changed, the large file one line in ten.
  for (let f = 0; f < REVIEW_BENCH.FILES - 1; f++) {
    const path = join(repo, 'src', `module-${f}.ts`);
    writeFileSync(path, readFileSync(path, 'utf8').replace(`m${f}_3 = 21`, `m${f}_3 = 42`));
  }
  writeFileSync(
    join(repo, 'big.ts'),
    lines(REVIEW_BENCH.BIG_LINES, 'big')
      .split('\n')
      .map((l, i) => (i % 10 === 5 ? l.replace('compute', 'recompute') : l))
      .join('\n'),
  );

  progress(`review: the turn's ${REVIEW_BENCH.FILES} files listed, beside git status and git diff --numstat run directly`);
  const list: number[] = [];
  const listPeer: number[] = [];
  const fileDiff: number[] = [];
  const fileDiffPeer: number[] = [];
  let listed = 0;
  for (let r = 0; r < REVIEW_BENCH.WARMUP + REVIEW_BENCH.ROUNDS; r++) {
    let t0 = performance.now();
    const view = (await get(`/api/changes/${key}?scope=turn`)) as { total: { files: number } };
    const tList = performance.now() - t0;
    listed = view.total.files;
    t0 = performance.now();
    await git(repo, 'status', '--porcelain');
    await git(repo, 'diff', '--numstat', 'HEAD');
    const tPeer = performance.now() - t0;
    t0 = performance.now();
    await get(`/api/changes/${key}/file?scope=turn&path=big.ts`);
    const tDiff = performance.now() - t0;
    t0 = performance.now();
    await git(repo, 'diff', 'HEAD', '--', 'big.ts');
    const tDiffPeer = performance.now() - t0;
    if (r < REVIEW_BENCH.WARMUP) continue;
    list.push(tList);
    listPeer.push(tPeer);
    fileDiff.push(tDiff);
    fileDiffPeer.push(tDiffPeer);
  }
  if (listed !== REVIEW_BENCH.FILES) throw new Error(`the turn listed ${listed} files, not ${REVIEW_BENCH.FILES}`);

  progress(`review: in Chromium on the phone profile, a tap on the ${REVIEW_BENCH.BIG_LINES}-line file to its diff painted, ${REVIEW_BENCH.PAINTS} times`);
  const browser = await launchBrowser();
  const paintMs: number[] = [];
  try {
    const context = await browser.newContext(PHONE);
    await pairBrowser(context, agent, 'bench phone');
    const page = await context.newPage();
    for (let r = 0; r < REVIEW_BENCH.PAINTS + 1; r++) {
      await page.goto(new URL(`/t/${key}/changes`, agent.url).href);
      const row = page.locator('pm-changes-view').getByRole('button', { name: /big\.ts/ });
      await row.waitFor();
      // From the tap to the frame after the diff's rows are in the document. No named function
      // inside: the bench runs under tsx, whose helpers for names do not exist in the page.
      const ms = await row.evaluate(
        (button) =>
          new Promise<number>((resolve) => {
            const view = button.getRootNode() as ShadowRoot;
            const t0 = performance.now();
            const watch = new MutationObserver(() => {
              if ((view.querySelector('table.diff tbody')?.children.length ?? 0) <= 250) return;
              watch.disconnect();
              requestAnimationFrame(() => resolve(performance.now() - t0));
            });
            watch.observe(view, { childList: true, subtree: true });
            (button as HTMLElement).click();
          }),
      );
      // The first tap also loads the view's syntax for that file: it is the cold one, not counted.
      if (r > 0) paintMs.push(ms);
    }
  } finally {
    await browser.close();
  }

  const assets = join(REPO_ROOT, 'dist', 'pwa', 'assets');
  const chunkFile = readdirSync(assets).find((f) => /^changes-view-.*\.js$/.test(f));
  if (!chunkFile) throw new Error('no changes-view chunk in dist/pwa/assets: build first');
  const chunkBytes = brotliCompressSync(readFileSync(join(assets, chunkFile))).length;
  return {
    promptRecorded: times(recorded),
    promptOutsideGit: times(outside),
    list: times(list),
    listPeer: times(listPeer),
    fileDiff: times(fileDiff),
    fileDiffPeer: times(fileDiffPeer),
    paintMs,
    chunkBytes,
    chunkFile,
  };
}

export function reviewSection(r: ReviewBenchResult, runLine: string): string {
  const f = (x: number) => x.toFixed(1);
  const t = (x: Times) => `${f(x.p50)} / ${f(x.p99)} ms`;
  const paint = quantile(r.paintMs, 0.5);
  return [
    `## ${REVIEW_HEADING}`,
    '',
    runLine,
    '',
    '| measure | pocketmux | peer in the same rounds | pocketmux ÷ peer |',
    '| --- | --- | --- | --- |',
    `| a prompt's UserPromptSubmit hook posted → answered, the turn's start recorded in a repository of ${REVIEW_BENCH.FILES + 1} files (git add into pocketmux's index, write-tree), p50 / p99 of ${REVIEW_BENCH.ROUNDS} | **${t(r.promptRecorded)}** | the same hook from a folder outside git: ${t(r.promptOutsideGit)} | ${f(r.promptRecorded.p50 / r.promptOutsideGit.p50)} (p50) |`,
    `| \`GET /api/changes/:key?scope=turn\`, a turn that changed ${REVIEW_BENCH.FILES} files (snapshot, diff-tree, counts), p50 / p99 of ${REVIEW_BENCH.ROUNDS} | **${t(r.list)}** | \`git status --porcelain\` then \`git diff --numstat HEAD\`, run directly: ${t(r.listPeer)} | ${f(r.list.p50 / r.listPeer.p50)} (p50) |`,
    `| \`GET /api/changes/:key/file\` of a ${REVIEW_BENCH.BIG_LINES.toLocaleString('en')}-line file, one line in ten changed, p50 / p99 of ${REVIEW_BENCH.ROUNDS} | **${t(r.fileDiff)}** | \`git diff HEAD -- file\`, run directly: ${t(r.fileDiffPeer)} | ${f(r.fileDiff.p50 / r.fileDiffPeer.p50)} (p50) |`,
    `| Chromium, phone profile: a tap on that file → its diff's rows painted (the frame after), median of ${r.paintMs.length} (each: ${r.paintMs.map((x) => x.toFixed(0)).join(', ')} ms) | **${paint.toFixed(0)} ms** | | |`,
    `| the Changes view's chunk (\`${r.chunkFile}\`), Brotli, as it loads on the first tap on Changes | **${(r.chunkBytes / 1024).toFixed(1)} KB** | | |`,
    '',
    `How it is measured: one agent, a repository of ${REVIEW_BENCH.FILES} modules of ${REVIEW_BENCH.FILE_LINES} lines and a file of ${REVIEW_BENCH.BIG_LINES.toLocaleString('en')} lines, committed; a Claude session reports from it by its hooks as an outside session (HTTP hooks posted on loopback with keep-alive), a second from a folder outside git. Prompt rounds alternate the two, the order turning; then ${REVIEW_BENCH.FILES - 1} modules get a line changed and the large file one line in ten, and each round lists the turn, runs the peer commands, reads the large file's diff and runs its peer, after ${REVIEW_BENCH.WARMUP} untimed rounds. The browser part pairs a phone-sized page, opens \`/t/<key>/changes\` and clicks the large file's row, timing inside the page from the click to the frame after the diff's table has its rows; the first click is not counted.`,
  ].join('\n');
}
