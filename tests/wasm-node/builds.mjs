// The two builds of the installed package's entry (the glue, arcade.js): the `nodejs` build as
// installed (CommonJS), and the `web` build (ES module + separate .wasm, what the verifier page
// loads) from wasm/pkg-web, instantiated from its bytes.
import { readFile } from 'node:fs/promises';
import * as nodeBuild from 'arcade-wasm';

const pkgWeb = new URL('../../wasm/pkg-web/', import.meta.url);

async function loadWeb() {
  const web = await import(new URL('arcade.js', pkgWeb));
  web.initSync({ module: await readFile(new URL('arcade_wasm_bg.wasm', pkgWeb)) });
  return web;
}

/** `[["nodejs", module], ["web", module]]`. */
export const builds = [
  ['nodejs', nodeBuild],
  ['web', await loadWeb()],
];
