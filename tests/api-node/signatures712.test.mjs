// The house's EIP-712 signatures (docs/proofs.md) checked by viem against the live server: the
// commitment signed at commit, the receipt signed at settlement for every game, the same
// signatures on /verify and the receipts feed, tampered messages rejected, every seed batch's
// signed Merkle root with RFC 9162 inclusion proofs checked by an independent implementation
// written here, and every used index of a batch accounted for after concurrent commits. The
// signed marks verify, and from them on every receipt signs `house_agent`: a house wallet's and
// a player's receipt both verify with viem under that type.
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { after, before, test } from 'node:test';

import { isAddress, recoverTypedDataAddress, verifyTypedData } from 'viem';
import { generatePrivateKey, privateKeyToAccount } from 'viem/accounts';

import { startServer } from './server.mjs';

process.env.ARCADE__RATE_LIMITS__ENABLED = 'false'; // many rounds; startServer passes process.env on
// One of the house's own wallets: its receipts say (and sign) house_agent: true.
const houseAgent = privateKeyToAccount(generatePrivateKey());
process.env.ARCADE__HOUSE__WALLETS = `["${houseAgent.address}"]`;
let server;
let signer;
let signingDomain;
let signedMarks;
before(async () => {
  server = await startServer();
  ({ signer, signing_domain: signingDomain, signed_marks: signedMarks } = (await call('GET', '/api/arcade/manifest')).body);
});
after(async () => { await server?.stop(); });

async function call(method, path, body) {
  const response = await fetch(`${server.baseUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

async function newPlayer(account = privateKeyToAccount(generatePrivateKey())) {
  const { address } = account;
  assert.equal((await call('POST', '/api/arcade/free', { address })).status, 200);
  const { body: auth } = await call('GET', `/api/arcade/auth-statement/${address}`);
  return { address, signature: await account.signMessage({ message: auth.statement }) };
}

async function commit(player) {
  const answer = await call('POST', '/api/arcade/commit', player);
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body;
}

const GAME_PATHS = { coinflip: 'flip', dice: 'dice', roulette: 'roulette', limbo: 'limbo' };
async function play(player, game, params, clientSeed = `seed ${game} ${JSON.stringify(params)}`) {
  const round = await commit(player);
  const played = await call('POST', `/api/arcade/${GAME_PATHS[game]}`, {
    round_id: round.round_id, client_seed: clientSeed, wager: 5, ...params,
  });
  assert.equal(played.status, 200, JSON.stringify(played.body));
  return { round, receipt: played.body };
}

const seconds = (rfc3339) => Math.floor(Date.parse(rfc3339) / 1000);
const verify = (signed, address = signer) => verifyTypedData({ address, ...signed.typed_data, signature: signed.signature });
const tampered = (signed, change) => { const copy = structuredClone(signed); change(copy.typed_data); return copy; };
// The field lists of docs/proofs.md, as `Name(type name,…)`.
const fields = (encoded) => encoded.slice(encoded.indexOf('(') + 1, -1).split(',')
  .map((field) => { const [type, name] = field.split(' '); return { name, type }; });
const TYPES = {
  EIP712Domain: fields('EIP712Domain(string name,string version,uint256 chainId)'),
  Commitment: fields('Commitment(string round_id,address player,bytes32 commitment,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 created_at)'),
  // From the signed marks' house_agent_signed_from on (every bet of this fresh server).
  Receipt: fields('Receipt(string round_id,uint256 bet_id,address player,string game,bytes32 commitment,bytes32 server_seed,string client_seed,uint256 nonce,string call,uint256 target,bool has_number,uint256 number,uint256 wager,uint256 outcome,bool won,uint256 payout,int256 balance_change,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 settled_at,bool house_agent)'),
  // Below it: the same members without house_agent.
  ReceiptBefore: fields('Receipt(string round_id,uint256 bet_id,address player,string game,bytes32 commitment,bytes32 server_seed,string client_seed,uint256 nonce,string call,uint256 target,bool has_number,uint256 number,uint256 wager,uint256 outcome,bool won,uint256 payout,int256 balance_change,uint256 batch_id,uint256 index,uint256 fairness_version,uint256 settled_at)'),
  SeedBatch: fields('SeedBatch(uint256 batch_id,uint256 size,bytes32 merkle_root,uint256 created_at)'),
  SignedMarks: fields('SignedMarks(uint256 signed_from,uint256 house_agent_signed_from)'),
};

async function assertSignedBy(signed, primaryType) {
  assert.match(signed.signature, /^0x[0-9a-f]{128}(1b|1c)$/, 'r ‖ s ‖ v with v 27 or 28');
  const { typed_data: typedData } = signed;
  assert.equal(typedData.primaryType, primaryType);
  assert.deepEqual(typedData.domain, signingDomain, 'the manifest’s domain');
  assert.deepEqual(typedData.types, { EIP712Domain: TYPES.EIP712Domain, [primaryType]: TYPES[primaryType] });
  assert.equal(await verify(signed), true, `${primaryType} verifies with viem as sent`);
  assert.equal(await recoverTypedDataAddress({ ...typedData, signature: signed.signature }), signer);
}

// The mapping tables of docs/proofs.md.
function expectedCommitment(answer, createdAt) {
  return {
    round_id: answer.round_id,
    player: answer.address,
    commitment: `0x${answer.commitment}`,
    batch_id: answer.proofs.batch.batch_id,
    index: answer.proofs.batch.index,
    fairness_version: answer.fairness_version,
    created_at: seconds(createdAt),
  };
}

function expectedReceipt(r) {
  const straight = r.game === 'roulette' && r.params.bet === 'straight';
  return {
    round_id: r.round_id,
    bet_id: r.bet_id,
    player: r.address,
    game: r.game,
    commitment: `0x${r.commitment}`,
    server_seed: `0x${r.server_seed}`,
    client_seed: r.client_seed,
    nonce: r.nonce,
    call: { coinflip: r.params.call, dice: r.params.direction, roulette: r.params.bet, limbo: 'limbo' }[r.game],
    target: { dice: r.params.target, limbo: r.params.target_hundredths }[r.game] ?? 0,
    has_number: straight,
    number: straight ? r.params.number : 0,
    wager: r.wager,
    outcome: { coinflip: r.result.outcome === 'heads' ? 1 : 0, dice: r.result.roll_hundredths, roulette: r.result.pocket, limbo: r.result.result_hundredths }[r.game],
    won: r.won,
    payout: r.payout,
    balance_change: r.profit,
    batch_id: r.proofs.batch.batch_id,
    index: r.proofs.batch.index,
    fairness_version: r.fairness_version,
    settled_at: seconds(r.settled_at),
    house_agent: r.house_agent,
  };
}

// RFC 9162 §2.1: leaf = SHA-256(0x00 ‖ c), node = SHA-256(0x01 ‖ left ‖ right); §2.1.3.2 checks
// an inclusion proof, deriving each sibling's side from (index, size).
const sha256 = (...parts) => createHash('sha256').update(Buffer.concat(parts)).digest();
function verifyInclusion({ commitment, index, size, auditPath, root }) {
  if (index >= size) return false;
  let fn = index;
  let sn = size - 1;
  let r = sha256(Buffer.from([0]), Buffer.from(commitment, 'hex'));
  for (const hex of auditPath) {
    if (sn === 0) return false;
    const p = Buffer.from(hex, 'hex');
    if (fn % 2 === 1 || fn === sn) {
      r = sha256(Buffer.from([1]), p, r);
      while (fn % 2 === 0 && fn !== 0) { fn >>= 1; sn >>= 1; } // only when fn === sn
    } else {
      r = sha256(Buffer.from([1]), r, p);
    }
    fn >>= 1; sn >>= 1;
  }
  return sn === 0 && r.toString('hex') === root;
}

const flipHex = (hex) => (hex[0] === '0' ? '1' : '0') + hex.slice(1);
const seedBatches = async () => (await call('GET', '/api/arcade/seed-batches')).body;

test('the manifest and the games list publish the same signer and domain', async () => {
  assert.ok(isAddress(signer, { strict: true }), `EIP-55: ${signer}`);
  assert.deepEqual(Object.keys(signingDomain).sort(), ['chainId', 'name', 'version']);
  assert.equal(signingDomain.name, 'Provably Fair Arcade');
  assert.equal(signingDomain.version, '1');
  assert.ok(Number.isSafeInteger(signingDomain.chainId));
  const { body: games } = await call('GET', '/api/arcade/games');
  assert.equal(games.signer, signer);
  assert.deepEqual(games.signing_domain, signingDomain);
});

test('the signed marks are published alike, signed by the signer over the numbers shown', async () => {
  assert.deepEqual([signedMarks.signed_from, signedMarks.house_agent_signed_from], [1, 1], 'a fresh database');
  await assertSignedBy(signedMarks, 'SignedMarks');
  assert.deepEqual(signedMarks.typed_data.message, { signed_from: 1, house_agent_signed_from: 1 });
  for (const path of ['/.well-known/x402', '/api/arcade/games']) {
    assert.deepEqual((await call('GET', path)).body.signed_marks, signedMarks, path);
  }
  assert.equal(await verify(tampered(signedMarks, (t) => { t.message.house_agent_signed_from = 1000; })), false);
});

test('a house agent’s receipt and a player’s both sign house_agent, and verify with viem', async () => {
  const agent = await newPlayer(houseAgent);
  const player = await newPlayer();
  for (const [who, account, houseAgentSays] of [['house agent', agent, true], ['player', player, false]]) {
    const { receipt } = await play(account, 'coinflip', { call: 'heads' });
    assert.ok(receipt.bet_id >= signedMarks.house_agent_signed_from, who);
    assert.equal(receipt.house_agent, houseAgentSays, who);
    const signed = receipt.proofs.receipt;
    await assertSignedBy(signed, 'Receipt');
    assert.equal(signed.typed_data.message.house_agent, houseAgentSays, who);
    assert.deepEqual(signed.typed_data.message, expectedReceipt(receipt), who);
    assert.equal(await verify(tampered(signed, (t) => { t.message.house_agent = !t.message.house_agent; })), false, `${who}: house_agent flipped`);
    const before = tampered(signed, (t) => { t.types.Receipt = TYPES.ReceiptBefore; delete t.message.house_agent; });
    assert.equal(await verify(before), false, `${who}: the type before house_agent is not what was signed`);
  }
});

test('a commit answer carries a Commitment signed by the signer, with its own fields', async () => {
  const player = await newPlayer();
  const answer = await commit(player);
  const signed = answer.proofs.commitment;
  await assertSignedBy(signed, 'Commitment');
  assert.equal(answer.proofs.receipt, undefined, 'no receipt before settlement');
  assert.deepEqual(signed.typed_data.message, expectedCommitment(answer, answer.created_at));
  assert.equal(signed.typed_data.message.player, player.address);
  // What TypeScript users of viem pass: `types` without EIP712Domain (viem derives it).
  const { EIP712Domain, ...types } = signed.typed_data.types;
  assert.ok(EIP712Domain);
  assert.equal(await verifyTypedData({ address: signer, ...signed.typed_data, types, signature: signed.signature }), true);
  assert.equal(await verify(signed, player.address), false, 'not signed by the player');
});

const PLAYS = [
  ['coinflip', { call: 'heads' }],
  ['coinflip', { call: 'tails' }],
  ['dice', { target: 50, direction: 'under' }],
  ['dice', { target: 25, direction: 'over' }],
  ['roulette', { bet: 'straight', number: 17 }],
  ['roulette', { bet: 'red' }],
  ['limbo', { target: '2.00' }],
  ['limbo', { target: 3 }],
];

test('every game’s receipt is signed, matches its fields, and is the same on /verify and the feed', async () => {
  const { body: listing } = await call('GET', '/api/arcade/games');
  assert.deepEqual([...new Set(PLAYS.map(([game]) => game))].sort(), listing.games.map((g) => g.name).sort(), 'a play of every game');
  const player = await newPlayer();
  for (const [game, params] of PLAYS) {
    const { round, receipt } = await play(player, game, params);
    const label = `${game} ${JSON.stringify(params)}`;
    await assertSignedBy(receipt.proofs.receipt, 'Receipt');
    await assertSignedBy(receipt.proofs.commitment, 'Commitment');
    assert.deepEqual(receipt.proofs.receipt.typed_data.message, expectedReceipt(receipt), label);
    assert.deepEqual(receipt.proofs.commitment.typed_data.message, expectedCommitment(receipt, receipt.committed_at), label);
    assert.deepEqual(receipt.proofs.commitment, round.proofs.commitment, `${label}: signed once, at commit`);
    assert.deepEqual(receipt.proofs.batch, round.proofs.batch, label);

    const { body: verified } = await call('GET', `/api/arcade/verify/${receipt.bet_id}`);
    // Signed by the house, its seed in a signed batch, but played without a Play signature.
    assert.deepEqual([verified.verdict, verified.mismatches], ['consistent, not proven', []], label);
    assert.deepEqual(verified.proofs, receipt.proofs, `${label}: /verify`);
    let fed;
    for (let after = 0; !fed && after !== null;) {
      const { body: page } = await call('GET', `/api/arcade/receipts?after=${after}&limit=1000`);
      fed = page.receipts.find((r) => r.bet_id === receipt.bet_id);
      after = page.next_after;
    }
    assert.ok(fed, `${label}: in the feed`);
    assert.deepEqual(fed.proofs, receipt.proofs, `${label}: feed`);
  }
});

test('a tampered message or domain no longer verifies', async () => {
  const player = await newPlayer();
  const { receipt } = await play(player, 'dice', { target: 50, direction: 'under' });
  const signed = receipt.proofs.receipt;
  assert.equal(await verify(signed), true);
  const changes = {
    'payout + 1': (t) => { t.message.payout += 1; },
    'won flipped': (t) => { t.message.won = !t.message.won; },
    'another client_seed': (t) => { t.message.client_seed += '!'; },
    'balance_change': (t) => { t.message.balance_change = t.message.balance_change === 5 ? -5 : 5; },
    'outcome': (t) => { t.message.outcome = (t.message.outcome + 1) % 10000; },
    'chainId in the domain': (t) => { t.domain.chainId += 1; },
    'domain name': (t) => { t.domain.name += ' '; },
  };
  for (const [what, change] of Object.entries(changes)) {
    assert.equal(await verify(tampered(signed, change)), false, what);
  }
  const commitment = receipt.proofs.commitment;
  assert.equal(await verify(tampered(commitment, (t) => { t.message.index += 1; })), false, 'commitment index');
  assert.equal(await verify(tampered(commitment, (t) => { t.message.commitment = `0x${flipHex(t.message.commitment.slice(2))}`; })), false);
});

test('every seed batch’s root is signed, and a receipt’s audit path reaches it', async () => {
  const player = await newPlayer();
  const { receipt } = await play(player, 'coinflip', { call: 'heads' });
  const batches = await seedBatches();
  assert.ok(batches.length >= 1);
  for (const batch of batches) {
    await assertSignedBy(batch, 'SeedBatch');
    assert.deepEqual(batch.typed_data.message, {
      batch_id: batch.batch_id, size: batch.size, merkle_root: `0x${batch.merkle_root}`, created_at: seconds(batch.created_at),
    });
    assert.ok(batch.used <= batch.size);
  }
  const { batch_id: batchId, index, size, audit_path: auditPath } = receipt.proofs.batch;
  const batch = batches.find((b) => b.batch_id === batchId);
  assert.ok(batch, `batch ${batchId} is listed`);
  assert.equal(size, batch.size);
  const proof = { commitment: receipt.commitment, index, size, auditPath, root: batch.merkle_root };
  assert.equal(verifyInclusion(proof), true, 'RFC 9162 inclusion');
  for (let i = 0; i < auditPath.length; i += 1) {
    const flipped = auditPath.map((hex, j) => (j === i ? flipHex(hex) : hex));
    assert.equal(verifyInclusion({ ...proof, auditPath: flipped }), false, `path entry ${i} flipped`);
  }
  assert.equal(verifyInclusion({ ...proof, index: index ^ 1 }), false, 'another index');
  if (auditPath.length) assert.equal(verifyInclusion({ ...proof, auditPath: auditPath.slice(1) }), false, 'a shorter path');
  assert.equal(verifyInclusion({ ...proof, commitment: flipHex(receipt.commitment) }), false, 'another commitment');
});

test('after 50 concurrent commits every used index is listed once, seeds and round ids revealed only when settled', async () => {
  const players = await Promise.all(Array.from({ length: 5 }, newPlayer));
  const rounds = await Promise.all(Array.from({ length: 50 }, (_, i) => commit(players[i % players.length])));
  const taken = rounds.map((r) => `${r.proofs.batch.batch_id}/${r.proofs.batch.index}`);
  assert.equal(new Set(taken).size, 50, 'no two commits share an index');
  // Settle every other round; the rest stay open.
  const settled = new Map();
  await Promise.all(rounds.filter((_, i) => i % 2 === 0).map(async (round) => {
    const played = await call('POST', '/api/arcade/flip', { round_id: round.round_id, client_seed: 'c', wager: 1, call: 'heads' });
    assert.equal(played.status, 200, JSON.stringify(played.body));
    settled.set(round.round_id, played.body);
  }));

  const byCommitment = new Map();
  for (const summary of await seedBatches()) {
    const { status, body: batch } = await call('GET', `/api/arcade/seed-batches/${summary.batch_id}`);
    assert.equal(status, 200);
    await assertSignedBy(batch, 'SeedBatch');
    assert.deepEqual(batch.rounds.map((r) => r.index), Array.from({ length: batch.used }, (_, i) => i),
      `batch ${batch.batch_id}: indices 0..${batch.used - 1}, once each, in order`);
    for (const row of batch.rounds) {
      assert.equal(verifyInclusion({ commitment: row.commitment, index: row.index, size: batch.size, auditPath: row.audit_path, root: batch.merkle_root }), true);
      if (row.state === 'open') {
        assert.equal(row.server_seed, null, `${row.commitment} open: seed hidden`);
        assert.equal(row.round_id, null, `${row.commitment} open: its id (which plays it) hidden`);
        assert.equal(row.bet_id, null);
      } else {
        assert.equal(createHash('sha256').update(row.server_seed, 'ascii').digest('hex'), row.commitment, row.round_id);
        assert.equal(row.state === 'settled', row.bet_id !== null);
      }
      byCommitment.set(row.commitment, { ...row, batch_id: batch.batch_id });
    }
  }
  for (const round of rounds) {
    const row = byCommitment.get(round.commitment);
    assert.ok(row, `${round.round_id} listed`);
    assert.deepEqual([row.batch_id, row.index, row.commitment], [round.proofs.batch.batch_id, round.proofs.batch.index, round.commitment]);
    const receipt = settled.get(round.round_id);
    if (receipt) {
      assert.deepEqual([row.state, row.round_id, row.server_seed, row.bet_id], ['settled', round.round_id, receipt.server_seed, receipt.bet_id]);
    } else {
      assert.deepEqual([row.state, row.round_id, row.server_seed, row.bet_id], ['open', null, null, null]);
    }
  }
});

// The player's own Play (docs/proofs.md, "Play"), signed with viem's signTypedData from the
// commit answer and the call: shown in proofs.play, it verifies with viem as the player's; one
// signed for another call is refused and nothing moves.
function playTypedData(round, game, body) {
  const call = { coinflip: body.call, dice: body.direction ?? 'under', roulette: body.bet }[game];
  return {
    domain: signingDomain,
    primaryType: 'Play',
    types: {
      Play: [
        { name: 'round_id', type: 'string' }, { name: 'player', type: 'address' },
        { name: 'commitment', type: 'bytes32' }, { name: 'game', type: 'string' },
        { name: 'client_seed', type: 'string' }, { name: 'call', type: 'string' },
        { name: 'target', type: 'uint256' }, { name: 'has_number', type: 'bool' },
        { name: 'number', type: 'uint256' }, { name: 'wager', type: 'uint256' },
      ],
    },
    message: {
      round_id: round.round_id, player: round.address, commitment: `0x${round.commitment}`, game,
      client_seed: body.client_seed, call, target: BigInt(body.target ?? 0),
      has_number: body.number !== undefined, number: BigInt(body.number ?? 0), wager: BigInt(body.wager),
    },
  };
}

test('a play signed with viem is shown as the player’s; one signed for another call changes nothing', async () => {
  const account = privateKeyToAccount(generatePrivateKey());
  const player = await newPlayer(account);
  const round = await commit(player);
  const body = { round_id: round.round_id, client_seed: 'viem', wager: 5, target: 30, direction: 'over' };
  const before = (await call('GET', `/api/arcade/balance/${account.address}`)).body.chips;
  const otherCall = await account.signTypedData(playTypedData(round, 'dice', { ...body, target: 31 }));
  const refused = await call('POST', '/api/arcade/dice', { ...body, play_signature: otherCall });
  assert.equal(refused.status, 403);
  assert.equal(refused.body.code, 'play_signature_mismatch');
  assert.equal((await call('GET', `/api/arcade/balance/${account.address}`)).body.chips, before);
  assert.equal((await call('GET', `/api/arcade/rounds/${round.round_id}`)).body.state, 'open');

  const signature = await account.signTypedData(playTypedData(round, 'dice', body));
  const played = await call('POST', '/api/arcade/dice', { ...body, play_signature: signature });
  assert.equal(played.status, 200, JSON.stringify(played.body));
  const shown = played.body.proofs.play;
  assert.equal(shown.signature, signature);
  assert.equal(await verifyTypedData({ address: account.address, signature, ...shown.typed_data }), true);
  assert.equal(await recoverTypedDataAddress({ signature, ...shown.typed_data }), account.address);
});
