// The audit's reader against an arcade that limits heavy reads: a 429 is waited out as its
// `Retry-After` says and the read asked again; any other error status still ends the audit.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';

import { seedRow } from '../../audit/bet.mjs';
import { feedPages, fetchBatch, fetchLimits, getJson } from '../../audit/feed.mjs';

/** A server that refuses each path's first `refusals` requests with 429, then answers `body`. */
async function limitingServer(refusals, body) {
  const seen = new Map();
  const server = createServer((req, res) => {
    const count = (seen.get(req.url) ?? 0) + 1;
    seen.set(req.url, count);
    if (count <= refusals) {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.end(JSON.stringify({ code: 'rate_limited', retry_after_s: 1 }));
      return;
    }
    res.writeHead(body === null ? 500 : 200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body ?? { code: 'internal' }));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, seen, close: () => new Promise((resolve) => server.close(resolve)) };
}

test('a rate-limited read is waited out and asked again', async () => {
  const page = { receipts: [{ bet_id: 1 }, { bet_id: 2 }], next_after: null };
  const server = await limitingServer(2, page);
  try {
    const started = performance.now();
    const receipts = [];
    for await (const page of feedPages(server.url, {})) receipts.push(...page);
    assert.deepEqual(receipts.map((r) => r.bet_id), [1, 2]);
    assert.equal(server.seen.get('/api/arcade/receipts?after=0&limit=1000'), 3);
    assert.ok(performance.now() - started >= 1900, 'waited as Retry-After said');
  } finally {
    await server.close();
  }
});

test('any other error status still ends the read', async () => {
  const server = await limitingServer(0, null);
  try {
    await assert.rejects(getJson(server.url, '/api/arcade/manifest'), (error) => error.network === true && /HTTP 500/.test(error.message));
  } finally {
    await server.close();
  }
});

/** A server answering each seed batch page (`?from=`) with `pageAt(from)`, counting the reads. */
async function pagingServer(pageAt) {
  let reads = 0;
  const server = createServer((req, res) => {
    reads += 1;
    const from = Number(new URL(req.url, 'http://x').searchParams.get('from'));
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(pageAt(from)));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${server.address().port}`;
  return { url, reads: () => reads, close: () => new Promise((resolve) => server.close(resolve)) };
}

const row = (index) => ({ index, state: 'open', commitment: 'c', round_id: null, server_seed: null, bet_id: null, audit_path: [] });
const page = (from, count, used, next) => ({
  batch_id: 7, size: 4000, merkle_root: 'r', used, next_from: next,
  rounds: Array.from({ length: count }, (_, i) => row(from + i)),
});

test('a batch read in pages while commits go on takes the last page used: every index once, no failure', async () => {
  // A commit lands between the two reads: the second page says one more index is used.
  const server = await pagingServer((from) => (from === 0 ? page(0, 1000, 1000, 1000) : page(1000, 1, 1001, null)));
  try {
    const batch = await fetchBatch(server.url, 7);
    assert.equal(batch.paging, null);
    assert.equal(batch.used, 1001);
    assert.deepEqual(batch.rounds.map((r) => r.index), Array.from({ length: 1001 }, (_, i) => i));
  } finally {
    await server.close();
  }
});

test('pages that lower used, or page past the batch without end, end the reading with a paging failure', async () => {
  const lowered = await pagingServer((from) => (from === 0 ? page(0, 1000, 1000, 1000) : page(1000, 1, 999, null)));
  try {
    assert.match((await fetchBatch(lowered.url, 7)).paging, /fewer than the 1000 of a page before/);
  } finally {
    await lowered.close();
  }
  // Each page one row further, forever: stopped once more rows are listed than the batch holds.
  const endless = await pagingServer((from) => page(from, 1000, 4000, from + 1000));
  try {
    assert.match((await fetchBatch(endless.url, 7)).paging, /more rows than the batch's 4000 seeds/);
    assert.ok(endless.reads() <= 6, `${endless.reads()} pages read`);
  } finally {
    await endless.close();
  }
});

test('a row answer that names another batch fails the round and leaves the known batches as they were', async () => {
  const known = new Map([[9, { batch_id: 9, size: 4000, merkle_root: 'kept', problem: null }]]);
  // Asked for batch 7's row, the arcade answers with a row of batch 9 (a root of its choosing).
  const server = await pagingServer(() => ({ batch: { ...page(0, 0, 1, null), batch_id: 9, merkle_root: 'other' }, row: row(0) }));
  try {
    const receipt = { bet_id: 1, proofs: { batch: { batch_id: 7, index: 0, size: 4000, audit_path: [] }, commitment: { signature: '0x1' }, receipt: { signature: '0x2' } } };
    const { batches, also } = await seedRow({ api: server.url, wasm: {}, proofs: {}, trust: {}, batches: known }, receipt);
    assert.deepEqual(also.map((f) => f.check), ['batch_row']);
    assert.match(also[0].why, /asked for seed batch 7 index 0, the arcade answered a row of batch 9/);
    assert.equal(batches, known);
    assert.equal(batches.get(9).merkle_root, 'kept');
  } finally {
    await server.close();
  }
});

test('every round reads its own row, even of a batch read before; a row under another root for that batch fails', async () => {
  const { wasm } = await import('./liar.mjs');
  const known = new Map([[7, { batch_id: 7, size: 4000, merkle_root: 'kept', problem: null }]]);
  let root = 'kept';
  const server = await pagingServer(() => ({ batch: { ...page(0, 0, 1, null), merkle_root: root }, row: row(3) }));
  try {
    const receipt = { bet_id: 1, proofs: { batch: { batch_id: 7, index: 3, size: 4000, audit_path: [] }, commitment: { signature: '0x1' }, receipt: { signature: '0x2' } } };
    const same = await seedRow({ api: server.url, wasm, proofs: {}, trust: {}, batches: known }, receipt);
    assert.equal(server.reads(), 1, 'the row was read although its batch was known');
    assert.ok(same.also.length > 0, 'the row itself was judged (an open row for a settled receipt)');
    assert.ok(!same.also.some((f) => /read for it before/.test(f.why)), JSON.stringify(same.also));
    root = 'other';
    const moved = await seedRow({ api: server.url, wasm, proofs: {}, trust: {}, batches: known }, receipt);
    assert.equal(server.reads(), 2);
    const twoRoots = moved.also.find((f) => /read for it before/.test(f.why));
    assert.equal(twoRoots?.check, 'batch_row', JSON.stringify(moved.also));
    assert.match(twoRoots.why, /under root other of 4000 seeds, not the root kept of 4000/);
    assert.equal(moved.batches, known, 'the root first read stays');
  } finally {
    await server.close();
  }
});

test('the published limits are read as positive whole numbers, else as none, and an error status is none', async () => {
  const answers = [
    [{ limits: { max_wager_chips: 1000, max_payout_chips: 500, daily_win_cap_chips: 2000 } }, { max_wager_chips: 1000, max_payout_chips: 500 }],
    [{ limits: { max_wager_chips: '1000', max_payout_chips: 500 } }, null],
    [{ limits: { max_wager_chips: 0, max_payout_chips: 500 } }, null],
    [{ limits: { max_wager_chips: -1, max_payout_chips: 500 } }, null],
    [{ limits: { max_wager_chips: 1000, max_payout_chips: 2.5 } }, null],
    [{ limits: { max_wager_chips: 2 ** 53, max_payout_chips: 500 } }, null],
    [{ limits: { max_wager_chips: 1000 } }, null],
    [{ limits: null }, null],
    [{}, null],
    [[1, 2], null],
    [null, null],
  ];
  for (const [body, limits] of answers) {
    const server = await limitingServer(0, body);
    try {
      assert.deepEqual(await fetchLimits(server.url), limits, JSON.stringify(body));
    } finally {
      await server.close();
    }
  }
});
