// checkSigned: valid for the right expectation; one readable problem for each tampered field,
// wrong domain, wrong signer, wrong member list or wrong primary type.
import { test } from "node:test";
import assert from "node:assert/strict";
import { getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { checkSigned } from "arcade-proofs";
import { TYPES, DOMAIN_TYPE, MANIFEST_DOMAIN, MAX_UINT256, MAX_INT256, generator, primaryOf, seed, toJson } from "./support.mjs";

const note = `PROOFS_SEED=${seed}`;
const house = privateKeyToAccount(generatePrivateKey());
const mallory = privateKeyToAccount(generatePrivateKey());

/** A signed object as the arcade sends it. */
async function signed(primaryType, message, { account = house, domain = MANIFEST_DOMAIN, fields = TYPES[primaryType] } = {}) {
  primaryType = primaryOf(primaryType);
  const types = { [primaryType]: fields };
  const signature = await account.signTypedData({ domain, types, primaryType, message });
  return { signature, typed_data: { domain, types: { EIP712Domain: DOMAIN_TYPE, ...types }, primaryType, message } };
}

const check = (signedObject, expected) => JSON.parse(checkSigned(toJson(signedObject), toJson(expected)));
const expectation = (primaryType, message, signer = house.address) => ({ signer, domain: MANIFEST_DOMAIN, primaryType: primaryOf(primaryType), message });

/** Another value of the same type. */
function other(type, value) {
  if (type === "string") return `${value}x`;
  if (type === "bool") return !value;
  if (type === "address") return getAddress(`0x${(BigInt(value) ^ 1n).toString(16).padStart(40, "0")}`);
  if (type === "bytes32") return `0x${(BigInt(value) ^ 1n).toString(16).padStart(64, "0")}`;
  if (type === "uint256") return value === MAX_UINT256 ? value - 1n : value + 1n;
  if (type === "int256") return value === MAX_INT256 ? value - 1n : value + 1n;
  throw new Error(type);
}

for (const primaryType of Object.keys(TYPES)) {
  test(`${primaryType}: valid as signed; each tampered field named (${note})`, async () => {
    const g = generator(seed ^ (primaryType.length * 7919));
    for (let round = 0; round < 5; round++) {
      const message = g.message(TYPES[primaryType]);
      const original = await signed(primaryType, message);
      const ok = check(original, expectation(primaryType, message));
      assert.deepEqual(ok, { valid: true, recovered: house.address, problems: [] });
      // The expectation with lowercase addresses and numbers as strings is the same.
      const loose = Object.fromEntries(TYPES[primaryType].map(({ name, type }) => [name, type === "address" ? message[name].toLowerCase() : message[name]]));
      assert.equal(check(original, { ...expectation(primaryType, loose), signer: house.address.toLowerCase() }).valid, true);

      for (const { name, type } of TYPES[primaryType]) {
        const changed = other(type, message[name]);
        // The house signed something else than the receipt says.
        const report = check(original, expectation(primaryType, { ...message, [name]: changed }));
        assert.equal(report.valid, false, name);
        assert.equal(report.recovered, house.address);
        assert.equal(report.problems.length, 1, `${name}: ${report.problems}`);
        assert.match(report.problems[0], new RegExp(`^message\\.${name} is .*, expected `), name);
        // Someone edited the signed message: named, and the signature no longer recovers the house.
        const tampered = structuredClone(original);
        tampered.typed_data.message[name] = changed;
        const edited = check(tampered, expectation(primaryType, message));
        assert.equal(edited.valid, false, name);
        assert.ok(edited.problems.some((p) => p.startsWith(`message.${name} is `)), `${name}: ${edited.problems}`);
        // The player signs a Play (here the same key stands in); the house, every other type.
        const whose = primaryType === "Play" ? "the round's player" : "the manifest's signer";
        assert.ok(edited.problems.some((p) => p.startsWith("signed by 0x") && p.endsWith(`not ${whose} ${house.address}`)), `${name}: ${edited.problems}`);
        assert.notEqual(edited.recovered, house.address);
      }
    }
  });
}

test("the example problem reads as a sentence", async () => {
  const message = { batch_id: 3n, size: 1024n, merkle_root: `0x${"ab".repeat(32)}`, created_at: 1795428000n };
  const report = check(await signed("SeedBatch", message), expectation("SeedBatch", { ...message, size: 1025 }));
  assert.deepEqual(report.problems, ["message.size is 1024, expected 1025"]);
});

test(`a wrong domain is named (${note})`, async () => {
  const message = generator(seed + 5).message(TYPES.SeedBatch);
  let report = check(await signed("SeedBatch", message, { domain: { ...MANIFEST_DOMAIN, chainId: 1 } }), expectation("SeedBatch", message));
  assert.deepEqual(report, { valid: false, recovered: house.address, problems: ["domain.chainId is 1, expected 31337"] });
  report = check(await signed("SeedBatch", message, { domain: { ...MANIFEST_DOMAIN, name: "Provably Fair Arcade?" } }), expectation("SeedBatch", message));
  assert.deepEqual(report.problems, ['domain.name is "Provably Fair Arcade?", expected "Provably Fair Arcade"']);
  // An extra member: the value and the domain type both differ from the manifest's.
  const extra = { ...MANIFEST_DOMAIN, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC" };
  const withExtra = await signed("SeedBatch", message, { domain: extra });
  withExtra.typed_data.types.EIP712Domain = [...DOMAIN_TYPE, { name: "verifyingContract", type: "address" }];
  report = check(withExtra, expectation("SeedBatch", message));
  assert.equal(report.valid, false);
  assert.ok(report.problems.some((p) => p.startsWith("domain.verifyingContract is ")), report.problems);
  assert.ok(report.problems.some((p) => p.startsWith("types.EIP712Domain is ")), report.problems);
  // A domain type in another order signs another domain than the one shown.
  const reordered = await signed("SeedBatch", message);
  reordered.typed_data.types.EIP712Domain = [DOMAIN_TYPE[1], DOMAIN_TYPE[0], DOMAIN_TYPE[2]];
  report = check(reordered, expectation("SeedBatch", message));
  assert.ok(report.problems.includes("types.EIP712Domain is EIP712Domain(string version,string name,uint256 chainId), expected EIP712Domain(string name,string version,uint256 chainId)"), report.problems);
  // chainId as a decimal string is the same domain.
  report = check(await signed("SeedBatch", message), { ...expectation("SeedBatch", message), domain: { ...MANIFEST_DOMAIN, chainId: "31337" } });
  assert.equal(report.valid, true, report.problems);
});

test(`a wrong signer is named (${note})`, async () => {
  const message = generator(seed + 6).message(TYPES.Receipt);
  const report = check(await signed("Receipt", message, { account: mallory }), expectation("Receipt", message));
  assert.deepEqual(report, {
    valid: false,
    recovered: mallory.address,
    problems: [`signed by ${mallory.address}, not the manifest's signer ${house.address}`],
  });
});

test(`a wrong member list is named, even when properly signed (${note})`, async () => {
  const message = generator(seed + 7).message(TYPES.Receipt);
  const retyped = TYPES.Receipt.map((f) => (f.name === "wager" ? { ...f, type: "uint128" } : f));
  let report = check(await signed("Receipt", { ...message, wager: message.wager & (2n ** 128n - 1n) }, { fields: retyped }), expectation("Receipt", { ...message, wager: message.wager & (2n ** 128n - 1n) }));
  assert.deepEqual(report.problems, ["types.Receipt.wager is uint128, expected uint256"]);

  const { nonce, ...withoutNonce } = message;
  report = check(await signed("Receipt", withoutNonce, { fields: TYPES.Receipt.filter((f) => f.name !== "nonce") }), expectation("Receipt", message));
  assert.ok(report.problems.includes("types.Receipt has no nonce (uint256)"), report.problems);
  assert.ok(report.problems.some((p) => p.startsWith("message.nonce is missing, expected ")), report.problems);
  assert.equal(nonce, message.nonce);

  report = check(await signed("Receipt", { ...message, memo: "hi" }, { fields: [...TYPES.Receipt, { name: "memo", type: "string" }] }), expectation("Receipt", message));
  assert.deepEqual(report.problems, ["types.Receipt has an unexpected member memo (string)"]);

  const swapped = [TYPES.Receipt[1], TYPES.Receipt[0], ...TYPES.Receipt.slice(2)];
  report = check(await signed("Receipt", message, { fields: swapped }), expectation("Receipt", message));
  assert.equal(report.problems.length, 1, report.problems);
  assert.match(report.problems[0], /^types\.Receipt is Receipt\(uint256 bet_id,string round_id,.*\(members in another order or repeated\)$/);
});

test(`a wrong primary type is named (${note})`, async () => {
  const g = generator(seed + 8);
  const batch = g.message(TYPES.SeedBatch);
  const report = check(await signed("SeedBatch", batch), expectation("Receipt", g.message(TYPES.Receipt)));
  assert.equal(report.valid, false);
  assert.equal(report.recovered, house.address);
  assert.ok(report.problems.includes('primaryType is "SeedBatch", expected "Receipt"'), report.problems);
  assert.ok(report.problems.includes("types.Receipt is missing"), report.problems);
});

test("unsigned or malformed signed objects are problems, bad expectations throw", async () => {
  const message = generator(seed + 9).message(TYPES.SeedBatch);
  const expected = expectation("SeedBatch", message);
  let report = check(null, expected);
  assert.equal(report.valid, false);
  assert.equal(report.recovered, null);
  assert.equal(report.problems.length, 1);
  const good = await signed("SeedBatch", message);
  report = check({ ...good, signature: "0x1234" }, expected);
  assert.deepEqual(report, { valid: false, recovered: null, problems: ["signature: the signature is 2 bytes, not 65 (r ‖ s ‖ v)"] });
  report = check({ typed_data: good.typed_data }, expected);
  assert.deepEqual(report.problems, ["signature is missing or not a string"]);
  report = check({ ...good, typed_data: { ...good.typed_data, message: { ...message, size: "lots" } } }, expected);
  assert.equal(report.valid, false);
  assert.equal(report.recovered, null);
  assert.ok(report.problems.some((p) => p.startsWith("typed_data cannot be hashed: ")), report.problems);

  for (const bad of [
    "not json",
    toJson({ ...expected, signer: "house" }),
    toJson({ ...expected, primaryType: "Mail" }),
    toJson({ ...expected, domain: null }),
    toJson({ ...expected, message: { ...message, size: undefined } }),
    toJson({ ...expected, message: { ...message, size: "lots" } }),
  ]) {
    assert.throws(() => checkSigned(toJson(good), bad), (e) => e instanceof Error && e.code === "invalid_input", bad);
  }
  assert.throws(() => checkSigned("{", toJson(expected)), (e) => e instanceof Error && e.code === "invalid_input");
});
