#!/usr/bin/env node
import { main } from '../dist/agent/cli/main.js';
import { visibleLines } from '../dist/protocol/safe-text.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`pocketmux: ${visibleLines(String(err?.stack ?? err))}\n`);
    process.exit(1);
  },
);
