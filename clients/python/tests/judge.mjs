// Judges the cases of a JSON file with the shared checking module (audit/: trust, batches,
// verdicts) and the wasm-bindgen builds of the core and the signature checks, and prints each
// verdict's name, verdict and failed checks as JSON: what the Python composition must equal.
//   ARCADE_WASM=wasm/pkg-node/arcade.js ARCADE_PROOFS=proofs-wasm/pkg-node/arcade_proofs.js node judge.mjs cases.json
import { readFileSync } from 'node:fs';

import { signedBatches } from '../../../audit/batches.mjs';
import { loadModules } from '../../../audit/modules.mjs';
import { readTrust } from '../../../audit/trust.mjs';
import { judgeRound } from '../../../audit/verdicts.mjs';

const { wasm, proofs } = loadModules();
const cases = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const out = cases.map(({ name, manifest, batches, pin, receipt, options }) => {
  const trust = readTrust(proofs, manifest, pin ?? {});
  const context = { wasm, proofs, trust, batches: signedBatches({ proofs, trust }, batches) };
  const verdict = judgeRound(context, receipt, options ?? {});
  return { name, verdict: verdict.verdict, check: verdict.check, checks: verdict.failures.map((f) => f.check) };
});
console.log(JSON.stringify(out));
