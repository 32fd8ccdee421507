// Loads the two wasm modules the audit trusts instead of the server: the fairness core
// (arcade-wasm: verify, commitment, verifyInclusion, merkleRoot) and the signature checks
// (arcade-proofs: checkSigned, expectedReceiptMessages). Installed, both sit next to this file
// (`nodejs`-target builds, CommonJS); from a checkout, ARCADE_WASM and ARCADE_PROOFS name
// their entry files (e.g. wasm/pkg-node/arcade.js, proofs-wasm/pkg-node/arcade_proofs.js).
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = fileURLToPath(new URL('.', import.meta.url));

function load(envName, fileName) {
  const path = process.env[envName] ? resolve(process.env[envName]) : resolve(here, fileName);
  if (!existsSync(path)) {
    throw Object.assign(new Error(`${fileName} not found at ${path} (set ${envName})`), { usage: true });
  }
  return require(path);
}

/** `{ wasm, proofs }`: the fairness core and the signature module. */
export function loadModules() {
  return { wasm: load('ARCADE_WASM', 'arcade.js'), proofs: load('ARCADE_PROOFS', 'arcade_proofs.js') };
}
