// playTypedData: the Play a player signs before playing (docs/proofs.md), built from the commit
// answer's keys and the call. viem hashes it to the module's digest and signs it as it is; the
// signature recovers to the player, and checkSigned finds it valid against the Play that
// expectedReceiptMessages rebuilds from the receipt of that call, with the player as signer.
// Any field of the round moved after signing (above all the commitment), or another signer,
// and it no longer holds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { hashTypedData } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { checkSigned, expectedReceiptMessages, playTypedData, recoverTypedDataSigner, typedDataHash } from "arcade-proofs";
import { DOMAIN_TYPE, MANIFEST_DOMAIN, TYPES, sampleReceipt } from "./support.mjs";

/** The calls of each game as a client sends them, and the `params` its receipt shows. */
const CALLS = [
  ["coinflip", { call: "heads" }, { call: "heads" }, { outcome: "tails" }],
  ["dice", { target: 5000, direction: "over" }, { target: 5000, direction: "over" }, { roll_hundredths: 7311 }],
  ["dice without a direction", { target: 25 }, { target: 25, direction: "under" }, { roll_hundredths: 12 }],
  ["roulette straight on 0", { bet: "straight", number: 0 }, { bet: "straight", number: 0 }, { pocket: 0 }],
  ["roulette red", { bet: "red" }, { bet: "red", number: null }, { pocket: 3 }],
];

/** What a client fills in before playing: the commit answer's keys, the game, its call. */
function callFor(account, game, params) {
  return {
    round_id: "rnd_01JD6Q7ZC3",
    address: account.address.toLowerCase(),
    commitment: "9f".repeat(32),
    game,
    client_seed: "my lucky seed ☘",
    wager: 10,
    params,
  };
}

const typedFor = (call, domain = MANIFEST_DOMAIN) => JSON.parse(playTypedData(JSON.stringify(call), JSON.stringify(domain)));

/** checkSigned of a Play against the receipt's own Play, with `signer` as the signer. */
function checkPlay(signed, receipt, signer) {
  const { play } = JSON.parse(expectedReceiptMessages(JSON.stringify(receipt)));
  return JSON.parse(checkSigned(JSON.stringify(signed), JSON.stringify({ signer, domain: MANIFEST_DOMAIN, primaryType: "Play", message: play })));
}

for (const [name, params, shown, result] of CALLS) {
  test(`a Play of ${name}: viem signs it as it is, and the receipt rebuilds it`, async () => {
    const player = privateKeyToAccount(generatePrivateKey());
    const game = name.split(" ")[0];
    const typed = typedFor(callFor(player, game, params));
    assert.equal(typed.primaryType, "Play");
    assert.deepEqual(typed.types, { EIP712Domain: DOMAIN_TYPE, Play: TYPES.Play });
    assert.deepEqual(typed.domain, MANIFEST_DOMAIN);
    assert.equal(typed.message.player, player.address, "EIP-55, as viem requires");
    assert.equal(typedDataHash(JSON.stringify(typed)), hashTypedData(typed));

    const signature = await player.signTypedData(typed);
    assert.equal(recoverTypedDataSigner(JSON.stringify(typed), signature), player.address);

    const receipt = sampleReceipt(game, shown, result, { address: player.address });
    assert.deepEqual(checkPlay({ signature, typed_data: typed }, receipt, player.address), { valid: true, recovered: player.address, problems: [] });
  });
}

test("a Play no longer holds for a receipt re-seeded onto another commitment, or any other field moved", async () => {
  const player = privateKeyToAccount(generatePrivateKey());
  const typed = typedFor(callFor(player, "dice", { target: 5000, direction: "over" }));
  const signed = { signature: await player.signTypedData(typed), typed_data: typed };
  const receipt = sampleReceipt("dice", { target: 5000, direction: "over" }, { roll_hundredths: 1 }, { address: player.address });
  assert.equal(checkPlay(signed, receipt, player.address).valid, true);

  const reseeded = { ...receipt, commitment: "0b".repeat(32) };
  assert.deepEqual(checkPlay(signed, reseeded, player.address).problems, [`message.commitment is 0x${"9f".repeat(32)}, expected 0x${"0b".repeat(32)}`]);
  // The typed data shown rewritten to match: the signature then names someone else.
  const rewritten = { ...signed, typed_data: typedFor({ ...callFor(player, "dice", { target: 5000, direction: "over" }), commitment: "0b".repeat(32) }) };
  const report = checkPlay(rewritten, reseeded, player.address);
  assert.equal(report.valid, false);
  assert.deepEqual(report.problems, [`signed by ${report.recovered}, not the round's player ${player.address}`]);
  assert.notEqual(report.recovered, player.address);

  for (const [field, moved] of [
    ["round_id", { round_id: "rnd_other" }],
    ["client_seed", { client_seed: "another seed" }],
    ["wager", { wager: 11 }],
    ["call", { params: { target: 5000, direction: "under" } }],
    ["target", { params: { target: 5001, direction: "over" } }],
  ]) {
    const problems = checkPlay(signed, { ...receipt, ...moved }, player.address).problems;
    assert.ok(problems.some((p) => p.startsWith(`message.${field} is `)), `${field}: ${problems}`);
  }
  // Signed by another key (the house's, say) for the same fields.
  const house = privateKeyToAccount(generatePrivateKey());
  const byHouse = { signature: await house.signTypedData(typed), typed_data: typed };
  assert.equal(checkPlay(byHouse, receipt, player.address).valid, false);
});

test("bad calls and domains throw invalid_input naming what is wrong", () => {
  const player = privateKeyToAccount(generatePrivateKey());
  const good = callFor(player, "coinflip", { call: "heads" });
  for (const [call, domain, words] of [
    [{ ...good, commitment: "9f" }, MANIFEST_DOMAIN, /commitment is "9f", not 64 hex digits/],
    [{ ...good, game: "craps" }, MANIFEST_DOMAIN, /game is "craps"/],
    [{ ...good, params: {} }, MANIFEST_DOMAIN, /params.call is missing/],
    [{ ...good, wager: -1 }, MANIFEST_DOMAIN, /wager is -1/],
    [{ ...good, address: "0x12" }, MANIFEST_DOMAIN, /not a full address/],
    [good, { ...MANIFEST_DOMAIN, chain: 1 }, /domain.chain is not a member/],
  ]) {
    assert.throws(() => typedFor(call, domain), (e) => e instanceof Error && e.code === "invalid_input" && words.test(e.message), String(words));
  }
  assert.throws(() => playTypedData("{", "{}"), (e) => e.code === "invalid_input");
});
