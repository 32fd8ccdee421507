// expectedReceiptMessages / expectedCommitMessage / expectedSeedBatchMessage /
// expectedSignedMarksMessage map the JSON answers per docs/proofs.md's tables; a receipt signed
// from them checks valid end to end. With the signed marks, a receipt at or above
// house_agent_signed_from expects the Receipt type that signs house_agent, and one at or above
// signed_from without proofs is refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { checkSigned, expectedReceiptMessages, expectedCommitMessage, expectedSeedBatchMessage, expectedSignedMarksMessage } from "arcade-proofs";
import { TYPES, DOMAIN_TYPE, MANIFEST_DOMAIN, sampleReceipt, toJson } from "./support.mjs";

const expected = (receipt, marks) =>
  JSON.parse(expectedReceiptMessages(JSON.stringify(receipt), marks === undefined ? undefined : JSON.stringify(marks)));

const COMMITMENT = {
  round_id: "rnd_01JD6Q7ZC3",
  player: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
  commitment: `0x${"9f".repeat(32)}`,
  batch_id: 3,
  index: 17,
  fairness_version: 1,
  created_at: 1795428000, // 2026-11-23T10:00:00.000Z
};

/** The Play message for sampleReceipt (its owner's signature) with the call's members given. */
const playMessage = (game, members) => ({
  round_id: "rnd_01JD6Q7ZC3",
  player: "0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826",
  commitment: `0x${"9f".repeat(32)}`,
  game,
  client_seed: "my lucky seed ☘",
  target: 0,
  has_number: false,
  number: 0,
  wager: 10,
  ...members,
});

/** The call's members of a Receipt message, as the Play signs them. */
const callOf = ({ call, target = 0, has_number = false, number = 0 }) => ({ call, target, has_number, number });

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
    const play = playMessage(receipt.game, callOf(message));
    assert.deepEqual(expected(receipt), { commitment: COMMITMENT, receipt: message, play });
    assert.deepEqual(Object.keys(message).sort(), TYPES.Receipt.map((f) => f.name).sort());
    assert.deepEqual(Object.keys(play).sort(), TYPES.Play.map((f) => f.name).sort());
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

/** Signs `message` as the house would, with the member list `signedTypes` names `listed`. */
async function signedAs(house, listed, message) {
  const primaryType = listed.split("+")[0];
  const types = { [primaryType]: TYPES[listed] };
  return {
    signature: await house.signTypedData({ domain: MANIFEST_DOMAIN, types, primaryType, message }),
    typed_data: { domain: MANIFEST_DOMAIN, types: { EIP712Domain: DOMAIN_TYPE, ...types }, primaryType, message },
  };
}

// sampleReceipt's bet is 4242.
const MARKS = { signed_from: 4000, house_agent_signed_from: 4242 };

test("with the signed marks: house_agent is signed at and above house_agent_signed_from, not below", () => {
  const [name, receipt, message] = cases[0];
  const play = playMessage(receipt.game, callOf(message));
  const agent = { ...receipt, house_agent: true };
  assert.deepEqual(expected(agent, MARKS), {
    commitment: COMMITMENT, receipt: { ...message, house_agent: true }, receipt_type: "Receipt+house_agent", play,
  }, name);
  assert.deepEqual(Object.keys(expected(agent, MARKS).receipt).sort(), TYPES["Receipt+house_agent"].map((f) => f.name).sort());
  assert.equal(expected(receipt, MARKS).receipt.house_agent, false, "a player's receipt signs false");
  // The whole signed_marks object, as the manifest publishes it, reads the same.
  const published = { ...MARKS, signature: "0x", typed_data: {} };
  assert.deepEqual(expected(agent, published), expected(agent, MARKS));
  const below = { ...MARKS, house_agent_signed_from: 4243 };
  assert.deepEqual(expected(agent, below), { commitment: COMMITMENT, receipt: message, receipt_type: "Receipt", play });
  // No marks (undefined or null): as before them.
  assert.deepEqual(expected(agent), { commitment: COMMITMENT, receipt: message, play });
  assert.deepEqual(expected(agent, null), { commitment: COMMITMENT, receipt: message, play });
  const { house_agent: _, ...unsaid } = agent;
  assert.throws(() => expected(unsaid, MARKS), (e) => e.code === "invalid_input" && /house_agent is missing/.test(e.message));
  for (const bad of [[], { signed_from: 1 }, { signed_from: -1, house_agent_signed_from: 1 }, { signed_from: 0, house_agent_signed_from: 1 }, { signed_from: 5000, house_agent_signed_from: 4242 }]) {
    assert.throws(() => expected(agent, bad), (e) => e.code === "invalid_input", JSON.stringify(bad));
  }
});

test("with the signed marks: from signed_from on, a receipt without proofs is refused, not unsigned", () => {
  const stripped = { ...sampleReceipt("dice", { target: 5000 }, { roll_hundredths: 1 }), proofs: { batch: null, commitment: null, receipt: null } };
  assert.throws(() => expected(stripped, MARKS), (e) => e.code === "invalid_input" && /bet 4242 carries no proofs, but every bet from 4000 on must/.test(e.message));
  const { proofs: _, ...bare } = stripped;
  assert.throws(() => expected(bare, MARKS), (e) => e.code === "invalid_input");
  assert.deepEqual(expected({ ...stripped, bet_id: 3999 }, MARKS), { unsigned: true }, "below the mark: before signing began");
  assert.deepEqual(expected(stripped), { unsigned: true }, "without marks, as before them");
});

test("end to end with the marks: each era's receipt checks valid; the old type after the mark does not", async () => {
  const house = privateKeyToAccount(generatePrivateKey());
  const check = (signed, message) => JSON.parse(checkSigned(toJson(signed),
    toJson({ signer: house.address, domain: MANIFEST_DOMAIN, primaryType: "Receipt", message })));
  for (const [name, receipt] of cases) {
    for (const houseAgent of [true, false]) {
      const at = expected({ ...receipt, house_agent: houseAgent }, MARKS);
      const signed = await signedAs(house, at.receipt_type, at.receipt);
      assert.deepEqual(check(signed, at.receipt), { valid: true, recovered: house.address, problems: [] }, `${name} ${houseAgent}`);
      // The house claims the other house_agent than it signed: named.
      assert.deepEqual(check(signed, { ...at.receipt, house_agent: !houseAgent }).problems,
        [`message.house_agent is ${houseAgent}, expected ${!houseAgent}`], name);
      // The house signs the type before house_agent for a bet at or above the mark: refused.
      const { house_agent: _, ...before } = at.receipt;
      const hidden = await signedAs(house, "Receipt", before);
      assert.deepEqual(check(hidden, at.receipt).problems,
        ["types.Receipt has no house_agent (bool)", `message.house_agent is missing, expected ${houseAgent}`], name);
    }
    const older = expected(receipt, { ...MARKS, house_agent_signed_from: 5000 });
    assert.equal(older.receipt_type, "Receipt");
    const signed = await signedAs(house, "Receipt", older.receipt);
    assert.equal(check(signed, older.receipt).valid, true, `${name}: below the mark, the type before`);
  }
});

test("the signed marks: the message from the manifest, checked against the signer", async () => {
  const house = privateKeyToAccount(generatePrivateKey());
  const message = { signed_from: 1, house_agent_signed_from: 57 };
  const manifest = { signer: house.address, signing_domain: MANIFEST_DOMAIN, signed_marks: { ...message, ...(await signedAs(house, "SignedMarks", message)) } };
  assert.deepEqual(JSON.parse(expectedSignedMarksMessage(JSON.stringify(manifest))), message);
  assert.deepEqual(JSON.parse(expectedSignedMarksMessage(JSON.stringify(manifest.signed_marks))), message);
  const check = (answer, signer = house.address) => JSON.parse(checkSigned(toJson(answer.signed_marks), toJson({
    signer, domain: MANIFEST_DOMAIN, primaryType: "SignedMarks", message: JSON.parse(expectedSignedMarksMessage(JSON.stringify(answer))),
  })));
  assert.deepEqual(check(manifest), { valid: true, recovered: house.address, problems: [] });
  // The numbers shown moved past what was signed: named.
  const moved = structuredClone(manifest);
  moved.signed_marks.house_agent_signed_from = 1000000;
  assert.deepEqual(check(moved).problems, ["message.house_agent_signed_from is 57, expected 1000000"]);
  // Signed by someone else than the pinned signer.
  const other = privateKeyToAccount(generatePrivateKey());
  assert.equal(check(manifest, other.address).valid, false);
  assert.throws(() => expectedSignedMarksMessage(JSON.stringify({ signer: house.address })), (e) => e.code === "invalid_input" && /signed_marks is missing/.test(e.message));
});
