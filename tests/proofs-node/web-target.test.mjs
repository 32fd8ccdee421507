// The `web` build (ES module + separate .wasm, what a page loads) instantiates from bytes and
// answers exactly like the installed nodejs build.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import * as nodeBuild from "arcade-proofs";
import { TYPES, DOMAIN_TYPE, MANIFEST_DOMAIN, generator, primaryOf, sampleReceipt, seed, toJson } from "./support.mjs";

const pkgWeb = new URL("../../proofs-wasm/pkg-web/", import.meta.url);

const outcome = (fn) => {
  try {
    return { ok: fn() };
  } catch (e) {
    return { error: e instanceof Error, code: e.code, message: e.message };
  }
};

test(`the web build answers like the nodejs build (PROOFS_SEED=${seed})`, async () => {
  const web = await import(new URL("arcade_proofs.js", pkgWeb));
  web.initSync({ module: await readFile(new URL("arcade_proofs_bg.wasm", pkgWeb)) });
  const g = generator(seed + 11);
  const house = privateKeyToAccount(generatePrivateKey());
  const same = (name, ...args) => {
    const a = outcome(() => web[name](...args));
    assert.deepEqual(a, outcome(() => nodeBuild[name](...args)), name);
    return a;
  };
  assert.equal(same("signedTypes").ok, nodeBuild.signedTypes());
  for (const listed of Object.keys(TYPES)) {
    const primaryType = primaryOf(listed);
    for (let i = 0; i < 10; i++) {
      const message = g.message(TYPES[listed]);
      const types = { [primaryType]: TYPES[listed] };
      const signature = await house.signTypedData({ domain: MANIFEST_DOMAIN, types, primaryType, message });
      const typed = { domain: MANIFEST_DOMAIN, types: { EIP712Domain: DOMAIN_TYPE, ...types }, primaryType, message };
      assert.match(same("typedDataHash", toJson(typed)).ok, /^0x[0-9a-f]{64}$/);
      assert.equal(same("recoverTypedDataSigner", toJson(typed), signature).ok, house.address);
      const expected = { signer: house.address, domain: MANIFEST_DOMAIN, primaryType, message };
      assert.equal(JSON.parse(same("checkSigned", toJson({ signature, typed_data: typed }), toJson(expected)).ok).valid, true);
      const wrong = { ...expected, message: { ...message, [TYPES[listed][0].name]: g.value(TYPES[listed][0].type) } };
      same("checkSigned", toJson({ signature, typed_data: typed }), toJson(wrong));
    }
  }
  for (const receipt of [
    sampleReceipt("coinflip", { call: "heads" }, { outcome: "tails" }),
    sampleReceipt("dice", { target: 5000, direction: "over" }, { roll_hundredths: 9999 }),
    sampleReceipt("roulette", { bet: "straight", number: 0 }, { pocket: 0 }),
    { ...sampleReceipt("roulette", { bet: "red" }, { pocket: 1 }), proofs: { batch: null } },
  ]) {
    same("expectedReceiptMessages", JSON.stringify(receipt));
    same("expectedReceiptMessages", JSON.stringify(receipt), JSON.stringify({ signed_from: 1, house_agent_signed_from: 4242 }));
    same("expectedCommitMessage", JSON.stringify({ ...receipt, created_at: receipt.committed_at }));
    same("playTypedData", JSON.stringify(receipt), JSON.stringify(MANIFEST_DOMAIN));
  }
  assert.equal(same("playTypedData", "{}", JSON.stringify(MANIFEST_DOMAIN)).code, "invalid_input");
  // Errors too: same codes and messages.
  assert.equal(same("typedDataHash", "nope").code, "invalid_typed_data");
  assert.equal(same("recoverTypedDataSigner", "{}", "0x").code, "invalid_typed_data");
  assert.equal(same("expectedSeedBatchMessage", "{}").code, "invalid_input");
  assert.equal(same("expectedSignedMarksMessage", "{}").code, "invalid_input");
  same("expectedSignedMarksMessage", JSON.stringify({ signed_marks: { signed_from: 1, house_agent_signed_from: 2 } }));
});
