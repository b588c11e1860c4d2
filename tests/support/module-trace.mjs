/**
 * A preload for a CLI's node (`NODE_OPTIONS=--import <this file>`) that writes the URL of every
 * module it loads, one a line, to the file named by POCKETMUX_MODULE_TRACE: what a command
 * really loads, not what it was meant to.
 */
import { register } from 'node:module';

const traceFile = process.env.POCKETMUX_MODULE_TRACE;
if (traceFile) {
  register(
    `data:text/javascript,${encodeURIComponent(`
      import { appendFileSync } from 'node:fs';
      let file;
      export function initialize(data) { file = data.file; }
      export async function load(url, context, nextLoad) {
        appendFileSync(file, url + '\\n');
        return nextLoad(url, context);
      }
    `)}`,
    { data: { file: traceFile } },
  );
}
