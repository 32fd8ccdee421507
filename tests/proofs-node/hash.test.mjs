// typedDataHash equals viem's hashTypedData, and recoverTypedDataSigner names the account that
// signed with viem, for many random messages of every signed type (and a few others).
import { test } from "node:test";
import assert from "node:assert/strict";
import { hashTypedData, getAddress } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { typedDataHash, recoverTypedDataSigner, signedTypes } from "arcade-proofs";
import { TYPES, DOMAIN_TYPE, MANIFEST_DOMAIN, MAX_UINT256, MIN_INT256, generator, jsonMessage, primaryOf, seed, toJson } from "./support.mjs";

const ROUNDS = Number(process.env.PROOFS_ROUNDS ?? 60);
const note = `PROOFS_SEED=${seed}`;

function throwsCode(fn, code) {
  assert.throws(fn, (e) => {
    assert.ok(e instanceof Error, "a real Error");
    assert.equal(e.code, code, e.message);
    assert.ok(e.message.length > 0);
    return true;
  });
}

test("the module's signed types are the spec's", () => {
  assert.deepEqual(JSON.parse(signedTypes()), TYPES);
});

test("the EIP-712 Mail example", () => {
  const mail = {
    types: {
      EIP712Domain: [...DOMAIN_TYPE, { name: "verifyingContract", type: "address" }],
      Person: [{ name: "name", type: "string" }, { name: "wallet", type: "address" }],
      Mail: [{ name: "from", type: "Person" }, { name: "to", type: "Person" }, { name: "contents", type: "string" }],
    },
    primaryType: "Mail",
    domain: { name: "Ether Mail", version: "1", chainId: 1, verifyingContract: "0xCcCCccccCCCCcCCCCCCcCcCccCcCCCcCcccccccC" },
    message: {
      from: { name: "Cow", wallet: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826" },
      to: { name: "Bob", wallet: "0xbBbBBBBbbBBBbbbBbbBbbbbBBbBbbbbBbBbbBBbB" },
      contents: "Hello, Bob!",
    },
  };
  assert.equal(typedDataHash(JSON.stringify(mail)), "0xbe609aee343fb3c4b28e1df9e632fca64fcfaede20f02e86244efddf30957bd2");
  assert.equal(typedDataHash(JSON.stringify(mail)), hashTypedData(mail));
});

for (const listed of Object.keys(TYPES)) {
  const primaryType = primaryOf(listed);
  test(`random ${listed} messages: same hash as viem, the signer recovered (${note})`, async () => {
    const g = generator(seed ^ listed.length);
    for (let i = 0; i < ROUNDS; i++) {
      const account = privateKeyToAccount(generatePrivateKey());
      const domain = i % 4 === 0 ? MANIFEST_DOMAIN : { name: g.string(), version: String(g.int(100)), chainId: g.uint(64) || 1n };
      const message = g.message(TYPES[listed]);
      const types = { [primaryType]: TYPES[listed] };
      const hash = hashTypedData({ domain, types, primaryType, message });
      const signature = await account.signTypedData({ domain, types, primaryType, message });
      // As the arcade sends it (EIP712Domain listed), and without EIP712Domain (derived).
      const withDomain = toJson({ domain, types: { EIP712Domain: DOMAIN_TYPE, ...types }, primaryType, message: jsonMessage(message, g) });
      const derived = toJson({ domain, types, primaryType, message });
      assert.equal(typedDataHash(withDomain), hash, `round ${i}`);
      assert.equal(typedDataHash(derived), hash, `round ${i}`);
      assert.equal(recoverTypedDataSigner(withDomain, signature), account.address, `round ${i}`);
      // v as 0/1 names the same signer.
      const v01 = signature.slice(0, -2) + (parseInt(signature.slice(-2), 16) - 27).toString(16).padStart(2, "0");
      assert.equal(recoverTypedDataSigner(withDomain, v01), account.address, `round ${i}`);
    }
  });
}

test(`extremes: max uint256 as a string, min int256, long unicode (${note})`, async () => {
  const g = generator(seed + 1);
  const account = privateKeyToAccount(generatePrivateKey());
  const types = { Receipt: TYPES.Receipt };
  const base = g.message(TYPES.Receipt);
  for (const patch of [
    { balance_change: MIN_INT256, wager: MAX_UINT256, payout: MAX_UINT256, client_seed: "🎲".repeat(2000) },
    { balance_change: -1n, client_seed: "e\u0301\u0301\u0301 z\u0000\u001f\"\\/ 中文 𠀀" },
    { balance_change: 2n ** 255n - 1n, round_id: "" },
  ]) {
    const message = { ...base, ...patch };
    const signature = await account.signTypedData({ domain: MANIFEST_DOMAIN, types, primaryType: "Receipt", message });
    const json = toJson({ domain: MANIFEST_DOMAIN, types: { EIP712Domain: DOMAIN_TYPE, ...types }, primaryType: "Receipt", message });
    assert.equal(typedDataHash(json), hashTypedData({ domain: MANIFEST_DOMAIN, types, primaryType: "Receipt", message }));
    assert.equal(recoverTypedDataSigner(json, signature), account.address);
  }
});

test(`nested structs and arrays hash like viem (${note})`, () => {
  const g = generator(seed + 2);
  const types = {
    Item: [{ name: "id", type: "uint64" }, { name: "tags", type: "string[]" }, { name: "flags", type: "bool[2]" }],
    Order: [
      { name: "buyer", type: "address" }, { name: "items", type: "Item[]" }, { name: "note", type: "bytes" },
      { name: "code", type: "bytes4" }, { name: "delta", type: "int8" }, { name: "small", type: "uint16" },
    ],
  };
  for (let i = 0; i < 20; i++) {
    const message = {
      buyer: g.value("address"),
      items: Array.from({ length: g.int(4) }, () => ({
        id: g.uint(64), tags: Array.from({ length: g.int(3) }, g.string), flags: [g.next() < 0.5, g.next() < 0.5],
      })),
      note: `0x${Buffer.from(g.bytes(g.int(70))).toString("hex")}`,
      code: `0x${Buffer.from(g.bytes(4)).toString("hex")}`,
      delta: g.sint(8),
      small: g.uint(16),
    };
    const domain = { name: "Shop", chainId: 10n, verifyingContract: g.value("address"), salt: g.value("bytes32") };
    const viem = hashTypedData({ domain, types, primaryType: "Order", message });
    assert.equal(typedDataHash(toJson({ domain, types, primaryType: "Order", message })), viem, `round ${i}`);
  }
});

test("bad typed data and bad signatures throw real Errors with stable codes", async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const message = generator(seed).message(TYPES.SeedBatch);
  const data = { domain: MANIFEST_DOMAIN, types: { EIP712Domain: DOMAIN_TYPE, SeedBatch: TYPES.SeedBatch }, primaryType: "SeedBatch", message };
  const json = toJson(data);
  const signature = await account.signTypedData(data);
  throwsCode(() => typedDataHash("not json"), "invalid_typed_data");
  throwsCode(() => typedDataHash(toJson({ ...data, primaryType: "Nope" })), "invalid_typed_data");
  throwsCode(() => typedDataHash(toJson({ ...data, message: { ...message, size: -1n } })), "invalid_typed_data");
  throwsCode(() => typedDataHash(toJson({ ...data, message: { ...message, size: MAX_UINT256 + 1n } })), "invalid_typed_data");
  throwsCode(() => typedDataHash(toJson({ ...data, message: { ...message, size: 1.5 } })), "invalid_typed_data");
  throwsCode(() => typedDataHash(toJson({ ...data, message: { ...message, merkle_root: "0x1234" } })), "invalid_typed_data");
  throwsCode(() => typedDataHash(toJson({ ...data, types: { ...data.types, SeedBatch: [{ name: "size", type: "uint7" }] } })), "invalid_typed_data");
  throwsCode(() => recoverTypedDataSigner(json, signature.slice(0, -2)), "invalid_signature");
  throwsCode(() => recoverTypedDataSigner(json, signature.slice(0, -2) + "1d"), "invalid_signature");
  throwsCode(() => recoverTypedDataSigner(json, `0x${"00".repeat(64)}1b`), "invalid_signature");
  throwsCode(() => recoverTypedDataSigner(json, `0x${"ff".repeat(64)}1b`), "invalid_signature");
  throwsCode(() => recoverTypedDataSigner(json, "signature"), "invalid_signature");
  assert.equal(getAddress(recoverTypedDataSigner(json, signature)), account.address);
});
