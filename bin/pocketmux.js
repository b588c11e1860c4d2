#!/usr/bin/env node
import { main } from '../dist/agent/cli/main.js';

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err) => {
    process.stderr.write(`pocketmux: ${err?.stack ?? err}\n`);
    process.exit(1);
  },
);
