// The wasm cores, instantiated only from bytes that match the hashes in wasm-pins.js. On an
// embedding site the snippet pins every script of the element by its SRI `integrity`, this
// module and wasm-pins.js included; a .wasm is fetched, not imported, so no import map reaches
// it: each fetch carries its pinned hash instead, and the browser refuses other bytes before
// anything is compiled. wasm-pins.js is made by the server from the files it serves, so the
// page's own copy at /web/ pins what /wasm/ serves.
import initFairness from '../wasm/arcade.js';
import { WASM_INTEGRITY } from './wasm-pins.js';

/** The response for `url` (a .wasm next to this set), fetched only with its pinned hash. */
export async function pinnedWasm(url) {
  const name = url.pathname.split('/').pop();
  const integrity = WASM_INTEGRITY[name];
  const refusal = (why) => Object.assign(new Error(`${name} is refused: ${why}; the wasm core is not run`), { code: 'wasm_refused' });
  if (!integrity) throw refusal('this server pins no hash for it (its package is not built)');
  try {
    return await fetch(url, { integrity });
  } catch (error) {
    // A mismatch and a network failure both reject as a TypeError: name both.
    throw refusal(`its bytes do not match the ${integrity.split('-')[0]} this script pins, or it could not be fetched (${error.message})`);
  }
}

let fairness;
/** The fairness core (../wasm/arcade.js), instantiated once. */
export function fairnessCore() {
  fairness ??= initFairness({ module_or_path: pinnedWasm(new URL('../wasm/arcade_wasm_bg.wasm', import.meta.url)) });
  return fairness;
}

let proofs;
/** The signature checker (../wasm/arcade_proofs.js), imported and instantiated once. */
export function proofsCore() {
  proofs ??= import('../wasm/arcade_proofs.js').then(async (module) => {
    await module.default({ module_or_path: pinnedWasm(new URL('../wasm/arcade_proofs_bg.wasm', import.meta.url)) });
    return module;
  });
  return proofs;
}

/** The arcade that served this module: the root above web/, or above embed/<version>/web/. */
export const arcadeBase = import.meta.url.replace(/(?:embed\/[0-9a-f]+\/)?web\/cores\.js$/, '');
