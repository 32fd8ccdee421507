// A lying proxy in front of a real arcade: it forwards every request (the page, its modules and
// wasm included) and rewrites the answers one case at a time, as a dishonest house would. It
// holds the house's signing key, so what it re-signs carries valid signatures by the real
// signer; for the swapped signer it holds another key. Shared by the audit suite and the
// browser suite (each brings its viem accounts); the wasm packages come from the checkout.
import { createServer } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';

const root = new URL('../..', import.meta.url).pathname;
const require = createRequire(import.meta.url);
const wasm = require(process.env.ARCADE_WASM ?? join(root, 'wasm', 'pkg-node', 'arcade.js'));
const proofs = require(process.env.ARCADE_PROOFS ?? join(root, 'proofs-wasm', 'pkg-node', 'arcade_proofs.js'));

/** The wasm modules from the checkout: the fairness core and the signature module. */
export { proofs, wasm };

/** Feed pages as small as this, so paging is exercised on a small floor. */
const FEED_PAGE = 40;
const HOP_HEADERS = ['content-encoding', 'content-length', 'transfer-encoding', 'connection', 'etag', 'keep-alive'];

/** `{signature, typed_data}` with `typed_data` signed by `account` (a viem account). */
export async function signed(account, typedData) {
  const { domain, types, primaryType, message } = typedData;
  return { signature: await account.signTypedData({ domain, types, primaryType, message }), typed_data: typedData };
}

/**
 * Every signed object in an answer signed again by `account`, but the players' Plays: no key but
 * the player's makes those, and they still hold as they are (the signing domain is unchanged).
 */
async function resignAll(account, value) {
  if (Array.isArray(value)) return Promise.all(value.map((v) => resignAll(account, v)));
  if (value === null || typeof value !== 'object') return value;
  if (value.typed_data?.primaryType === 'Play') return value;
  if (typeof value.signature === 'string' && value.typed_data) {
    const again = await signed(account, value.typed_data);
    return { ...value, signature: again.signature };
  }
  const out = {};
  for (const [k, v] of Object.entries(value)) out[k] = await resignAll(account, v);
  return out;
}

/**
 * A receipt's Commitment and Receipt signed again by `account` for its current fields. The
 * player's Play, when it carries one, cannot be signed again: its typed data is shown rebuilt
 * from the current fields (as the arcade shows it), under the player's own signature.
 */
export async function resignReceipt(account, receipt, marks = null) {
  const args = [JSON.stringify(receipt)];
  if (marks) args.push(JSON.stringify(marks));
  const expected = JSON.parse(proofs.expectedReceiptMessages(...args));
  const { commitment, receipt: old, play } = receipt.proofs;
  return {
    ...receipt,
    proofs: {
      ...receipt.proofs,
      commitment: await signed(account, { ...commitment.typed_data, message: expected.commitment }),
      receipt: await signed(account, { ...old.typed_data, message: expected.receipt }),
      ...(play ? { play: { ...play, typed_data: { ...play.typed_data, message: expected.play } } } : {}),
    },
  };
}

/** The round settled again from `seed` at `nonce`: re-derived, its commitment too. */
function settled(receipt, seed, nonce) {
  const d = wasm.derive(receipt.game, { server_seed: seed, client_seed: receipt.client_seed, nonce, wager: receipt.wager, params: receipt.params });
  return { ...receipt, server_seed: seed, nonce, commitment: d.commitment, result: d.result, won: d.won, payout: d.payout, profit: d.profit };
}

/** The round settled again from a seed picked afterwards: re-derived, its commitment too. */
export function reseeded(receipt, seed = randomBytes(32).toString('hex')) {
  return settled(receipt, seed, receipt.nonce);
}

/** The round settled again at another nonce, picked afterwards: its seed and commitment kept. */
export function renonced(receipt, nonce) {
  return settled(receipt, receipt.server_seed, nonce);
}

export const stripped = (receipt) => ({ ...receipt, proofs: { batch: null, commitment: null, receipt: null } });

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** Forwards one request; the answer rewritten by `lie` when it has a rewrite for the path. */
async function forward(upstream, lie, req, res) {
  const url = new URL(req.url, upstream);
  const refused = lie.refuse?.(url);
  if (refused !== undefined) {
    // The arcade failing (or seeming to): an error status with the arcade's error body.
    res.writeHead(refused, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ code: 'unavailable', detail: 'the service is unavailable; try again shortly' }));
    return;
  }
  const made = lie.serve?.(url);
  if (made !== undefined) {
    // An answer the real arcade never gave (a seed batch the liar signed): JSON, as the arcade's.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(made));
    return;
  }
  if (url.pathname === '/api/arcade/receipts') url.searchParams.set('limit', String(Math.min(FEED_PAGE, Number(url.searchParams.get('limit')) || FEED_PAGE)));
  const headers = { ...req.headers };
  delete headers.host;
  delete headers['accept-encoding'];
  const chunks = [];
  for await (const chunk of req) chunks.push(chunk);
  const answer = await fetch(url, { method: req.method, headers, body: chunks.length ? Buffer.concat(chunks) : undefined });
  let body = Buffer.from(await answer.arrayBuffer());
  const rewrite = lie.rewrite?.(url);
  if (rewrite && answer.ok && (answer.headers.get('content-type') ?? '').includes('json')) {
    body = Buffer.from(JSON.stringify(await rewrite(JSON.parse(body.toString('utf8')))));
  }
  await wait(lie.delay?.(url) ?? 0);
  const out = {};
  for (const [k, v] of answer.headers) if (!HOP_HEADERS.includes(k)) out[k] = v;
  res.writeHead(answer.status, out);
  res.end(body);
}

/**
 * Starts the proxy before `upstream`; `use(lie)` sets the case: `{rewrite(url) → async
 * (answer) → answer | undefined, delay(url) → ms, serve(url) → answer | undefined, refuse(url) →
 * status | undefined}` (`serve`: answered by the liar itself, never asked of the arcade;
 * `refuse`: answered with that error status instead; null: honest). Returns `{url, use,
 * close}`.
 */
export async function startLiar(upstream) {
  let lie = {};
  const server = createServer((req, res) => {
    forward(upstream, lie, req, res).catch((error) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end(`liar: ${error.message}`);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${server.address().port}`,
    use(next) {
      lie = next ?? {};
    },
    close: () => new Promise((resolve) => { server.closeAllConnections(); server.close(resolve); }),
  };
}

/** Rewrites for the feed's pages, the verify answers, the manifest and the seed batches, by path. */
export function onPaths({ feed, verify, manifest, batchList, batch, anyJson }) {
  return (url) => {
    const p = url.pathname;
    if (feed && p === '/api/arcade/receipts') return (page) => feed(page, url);
    const id = p.match(/^\/api\/arcade\/verify\/(\d+)$/)?.[1];
    if (verify && id) return (receipt) => verify(receipt, Number(id));
    if (manifest && p === '/api/arcade/manifest') return manifest;
    if (batchList && p === '/api/arcade/seed-batches') return batchList;
    if (batch && /^\/api\/arcade\/seed-batches\/\d+$/.test(p)) return batch;
    if (anyJson) return anyJson;
    return undefined;
  };
}

export const resign = resignAll;
