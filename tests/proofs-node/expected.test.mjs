// expectedReceiptMessages / expectedCommitMessage / expectedSeedBatchMessage map the JSON
// answers per docs/proofs.md's tables; a receipt signed from them checks valid end to end.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { checkSigned, expectedReceiptMessages, expectedCommitMessage, expectedSeedBatchMessage } from "arcade-proofs";
import { TYPES, DOMAIN_TYPE, MANIFEST_DOMAIN, sampleReceipt, toJson } from "./support.mjs";

const expected = (receipt) => JSON.parse(expectedReceiptMessages(JSON.stringify(receipt)));

const COMMITMENT = {
  round_id: "rnd_01JD6Q7ZC3",
  player: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
  commitment: `0x${"9f".repeat(32)}`,
  batch_id: 3,
  index: 17,
  fairness_version: 1,
  created_at: 1795428000, // 2026-11-23T10:00:00.000Z
};

/** The Receipt message for sampleReceipt with the game-specific members given. */
const receiptMessage = (game, members) => ({
  round_id: "rnd_01JD6Q7ZC3",
  bet_id: 4242,
  player: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
  game,
  commitment: `0x${"9f".repeat(32)}`,
  server_seed: `0x${"0a".repeat(32)}`,
  client_seed: "my lucky seed ☘",
  nonce: 0,
  target: 0,
  has_number: false,
  number: 0,
  wager: 10,
  won: false,
  payout: 0,
  balance_change: -10,
  batch_id: 3,
  index: 17,
  fairness_version: 1,
  settled_at: 1795428005, // 2026-11-23T10:00:05.250Z, milliseconds dropped
  ...members,
});

const win = { won: true, payout: 20, profit: 10 };
const cases = [
  ["coinflip heads, won", sampleReceipt("coinflip", { call: "heads" }, { outcome: "heads" }, win),
    receiptMessage("coinflip", { call: "heads", outcome: 1, won: true, payout: 20, balance_change: 10 })],
  ["coinflip tails call, heads came", sampleReceipt("coinflip", { call: "tails" }, { outcome: "heads" }),
    receiptMessage("coinflip", { call: "tails", outcome: 1 })],
  ["coinflip heads call, tails came", sampleReceipt("coinflip", { call: "heads" }, { outcome: "tails" }),
    receiptMessage("coinflip", { call: "heads", outcome: 0 })],
  ["dice under", sampleReceipt("dice", { target: 5000, direction: "under" }, { roll: 73.11, roll_hundredths: 7311, win_chance: "50.0000%", multiplier: "1.9800", return_num: 198, return_den: 10 }),
    receiptMessage("dice", { call: "under", target: 5000, outcome: 7311 })],
  ["dice over, won", sampleReceipt("dice", { target: 9900, direction: "over" }, { roll: 99.5, roll_hundredths: 9950, win_chance: "0.9900%", multiplier: "99.0000" }, { won: true, payout: 990, profit: 980 }),
    receiptMessage("dice", { call: "over", target: 9900, outcome: 9950, won: true, payout: 990, balance_change: 980 })],
  ["dice without a direction (under by default)", sampleReceipt("dice", { target: 1 }, { roll_hundredths: 0 }),
    receiptMessage("dice", { call: "under", target: 1, outcome: 0 })],
  ["roulette straight on 0, won", sampleReceipt("roulette", { bet: "straight", number: 0 }, { pocket: 0, color: "green" }, { won: true, payout: 360, profit: 350 }),
    receiptMessage("roulette", { call: "straight", has_number: true, number: 0, outcome: 0, won: true, payout: 360, balance_change: 350 })],
  ["roulette red without a number", sampleReceipt("roulette", { bet: "red", number: null }, { pocket: 32, color: "red" }, win),
    receiptMessage("roulette", { call: "red", outcome: 32, won: true, payout: 20, balance_change: 10 })],
  ["roulette dozen3, number absent", sampleReceipt("roulette", { bet: "dozen3" }, { pocket: 5, color: "red" }),
    receiptMessage("roulette", { call: "dozen3", outcome: 5 })],
];

for (const [name, receipt, message] of cases) {
  test(`receipt messages: ${name}`, () => {
    assert.deepEqual(expected(receipt), { commitment: COMMITMENT, receipt: message });
    assert.deepEqual(Object.keys(message).sort(), TYPES.Receipt.map((f) => f.name).sort());
  });
}

test("times in another offset and a 0x-prefixed uppercase commitment map the same", () => {
  const receipt = sampleReceipt("coinflip", { call: "heads" }, { outcome: "heads" }, {
    committed_at: "2026-11-23T11:00:00+01:00",
    settled_at: "2026-11-23T10:00:05Z",
    commitment: `0x${"9F".repeat(32)}`,
  });
  assert.deepEqual(expected(receipt).commitment, COMMITMENT);
  assert.equal(expected(receipt).receipt.settled_at, 1795428005);
});

test("rounds opened before signing began are unsigned", () => {
  const receipt = sampleReceipt("dice", { target: 5000 }, { roll_hundredths: 1 });
  receipt.proofs = { batch: null, commitment: null, receipt: null };
  assert.deepEqual(expected(receipt), { unsigned: true });
  assert.deepEqual(JSON.parse(expectedCommitMessage(JSON.stringify({ ...receipt, created_at: "2026-11-23T10:00:00Z" }))), { unsigned: true });
});

test("bad receipts throw invalid_input naming the field", () => {
  const base = sampleReceipt("coinflip", { call: "heads" }, { outcome: "heads" });
  const { server_seed, ...hidden } = base;
  assert.equal(server_seed.length, 64);
  for (const [receipt, words] of [
    [hidden, /server_seed is missing/],
    [{ ...base, game: "craps" }, /game is "craps"/],
    [{ ...base, result: { outcome: "edge" } }, /result.outcome/],
    [{ ...base, settled_at: "yesterday" }, /settled_at is "yesterday", not an RFC 3339 time/],
    [{ ...base, address: "0x12…34" }, /address .*not a full address/],
    [{ ...base, wager: -1 }, /wager is -1/],
    [{ ...base, params: { bet: "straight" }, game: "roulette", result: { pocket: 1 } }, /params.number is missing/],
  ]) {
    assert.throws(() => expectedReceiptMessages(JSON.stringify(receipt)), (e) => e instanceof Error && e.code === "invalid_input" && words.test(e.message), String(words));
  }
  assert.throws(() => expectedReceiptMessages("["), (e) => e.code === "invalid_input");
});

test("commit answers and seed batches", () => {
  const answer = {
    round_id: "rnd_01JD6Q7ZC3", address: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826", commitment: "9f".repeat(32),
    fairness_version: 1, created_at: "2026-11-23T10:00:00.000Z", expires_at: "2026-11-23T10:10:00.000Z",
    proofs: { batch: { batch_id: 3, index: 17, size: 1024, audit_path: [] }, commitment: null },
  };
  assert.deepEqual(JSON.parse(expectedCommitMessage(JSON.stringify(answer))), COMMITMENT);
  const batch = { batch_id: 3, size: 1024, used: 18, merkle_root: "ef".repeat(32), created_at: "2026-11-23T09:00:00.000Z" };
  assert.deepEqual(JSON.parse(expectedSeedBatchMessage(JSON.stringify(batch))), {
    batch_id: 3, size: 1024, merkle_root: `0x${"ef".repeat(32)}`, created_at: 1795424400,
  });
});

test("end to end: the house signs the mapped messages, checkSigned finds both valid", async () => {
  const house = privateKeyToAccount(generatePrivateKey());
  for (const [name, receipt] of cases) {
    const messages = expected(receipt);
    const proofs = {};
    for (const [key, primaryType] of [["commitment", "Commitment"], ["receipt", "Receipt"]]) {
      const types = { [primaryType]: TYPES[primaryType] };
      const message = messages[key];
      proofs[key] = {
        signature: await house.signTypedData({ domain: MANIFEST_DOMAIN, types, primaryType, message }),
        typed_data: { domain: MANIFEST_DOMAIN, types: { EIP712Domain: DOMAIN_TYPE, ...types }, primaryType, message },
      };
    }
    const signedReceipt = { ...receipt, proofs: { ...receipt.proofs, ...proofs } };
    // What a page does with a receipt it fetched.
    const expectedNow = JSON.parse(expectedReceiptMessages(JSON.stringify(signedReceipt)));
    for (const [key, primaryType] of [["commitment", "Commitment"], ["receipt", "Receipt"]]) {
      const report = JSON.parse(checkSigned(
        JSON.stringify(signedReceipt.proofs[key]),
        JSON.stringify({ signer: house.address, domain: MANIFEST_DOMAIN, primaryType, message: expectedNow[key] }),
      ));
      assert.deepEqual(report, { valid: true, recovered: house.address, problems: [] }, `${name} ${key}`);
    }
    // The receipt's payout edited after signing: the signed receipt disagrees.
    const edited = JSON.parse(expectedReceiptMessages(JSON.stringify({ ...signedReceipt, payout: signedReceipt.payout + 1 })));
    const report = JSON.parse(checkSigned(
      toJson(signedReceipt.proofs.receipt),
      toJson({ signer: house.address, domain: MANIFEST_DOMAIN, primaryType: "Receipt", message: edited.receipt }),
    ));
    assert.deepEqual(report.problems, [`message.payout is ${signedReceipt.payout}, expected ${signedReceipt.payout + 1}`], name);
  }
});
