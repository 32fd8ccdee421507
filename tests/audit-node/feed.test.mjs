// The audit's reader against an arcade that limits heavy reads: a 429 is waited out as its
// `Retry-After` says and the read asked again; any other error status still ends the audit.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { test } from 'node:test';

import { feedPages, getJson } from '../../audit/feed.mjs';

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
