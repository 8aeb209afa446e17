// `node --import ./test/load-recorder.mjs …`: appends the URL of every module the process
// loads through the ES module loader to the file named by LOAD_RECORD_FILE, one per line.
// test/cli.test.ts uses it to prove the CLI's help loads no database code.
import { register } from "node:module";

const hooks = `
import fs from "node:fs";
export async function load(url, context, next) {
  if (process.env.LOAD_RECORD_FILE) fs.appendFileSync(process.env.LOAD_RECORD_FILE, url + "\\n");
  return next(url, context);
}
`;
register(`data:text/javascript,${encodeURIComponent(hooks)}`);
