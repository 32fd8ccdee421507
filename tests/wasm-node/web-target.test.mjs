// The `web` build (ES module + separate .wasm, what the verifier page loads) instantiates from
// bytes and gives the same verdicts as the installed nodejs build.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import * as nodeBuild from "arcade-wasm";
import { cases } from "./vectors.mjs";

const pkgWeb = new URL("../../wasm/pkg-web/", import.meta.url);

test("the web build verifies every vector like the nodejs build", async () => {
  const web = await import(new URL("arcade_wasm.js", pkgWeb));
  web.initSync({ module: await readFile(new URL("arcade_wasm_bg.wasm", pkgWeb)) });
  assert.deepEqual(web.version(), nodeBuild.version());
  for (const c of cases) {
    assert.deepEqual(web.verify(c.receipt), nodeBuild.verify(c.receipt), c.name);
  }
});
