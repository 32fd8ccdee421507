// What the checks read from the arcade: the manifest (who signs), the seed batches and the
// settled receipts, paged from the feed. The feed must strictly advance: every bet id greater
// than the one before it (so none repeats) and `next_after` the last bet id of its page; a page
// that breaks this ends the reading with a `feed_paging` failure, so a feed that repeats or
// runs backwards can neither loop the reader nor be counted twice. A 429 (the arcade limits
// reads of many rows) is waited out as its `Retry-After` says; a network or other HTTP error is
// thrown with `network: true` (the audit command exits 2: nothing was judged).
export const PAGE = 1000;

/** Waits the arcade asks of a rate-limited read (429) before the reader gives up. */
const MAX_WAITS = 60;
/** Longest single wait, in seconds, whatever `Retry-After` says. */
const MAX_WAIT_S = 60;
/** Tries of one request whose connection dropped (or whose answer did not come) in time. */
const MAX_ATTEMPTS = 3;
/** Longest one request may take, its body read included: an answer trickled forever ends. */
const READ_TIMEOUT_MS = 30_000;

const networkError = (message, extra = {}) => Object.assign(new Error(message), { network: true, ...extra });

/**
 * Fetches once, asking again on a dropped connection: the feed is judged page by page, so a
 * kept-alive connection may sit idle past the server's timeout and be closed just as it is
 * reused. A GET changes nothing, so asking again is safe. Each try, its body included, ends
 * after READ_TIMEOUT_MS (a `TimeoutError`, not the caller's abort).
 */
async function fetchOnce(url, signal) {
  for (let attempt = 1; ; attempt++) {
    const timeout = AbortSignal.timeout(READ_TIMEOUT_MS);
    try {
      return await fetch(url, { signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
    } catch (error) {
      if (error.name === 'AbortError' || attempt >= MAX_ATTEMPTS) throw error;
    }
  }
}

/** Resolves after `seconds`, or rejects with the signal's reason once it aborts. */
function sleep(seconds, signal) {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => { signal?.removeEventListener('abort', stop); resolve(); }, seconds * 1000);
    const stop = () => { clearTimeout(timer); reject(signal.reason); };
    signal?.addEventListener('abort', stop, { once: true });
  });
}

/**
 * GET `path` of the arcade at `baseUrl` as JSON; `signal` aborts it, waits included;
 * `onWait({seconds, path})` hears of each wait a 429 asks for before it begins.
 */
export async function getJson(baseUrl, path, { signal, onWait } = {}) {
  for (let waits = 0; ; waits++) {
    let response;
    try {
      response = await fetchOnce(new URL(path, baseUrl), signal);
    } catch (error) {
      if (error.name === 'AbortError') throw error;
      throw networkError(`GET ${path}: ${error.cause?.message ?? error.message}`);
    }
    // The feed and the seed batches are heavy reads, limited per client: wait as told, then ask again.
    if (response.status === 429 && waits < MAX_WAITS) {
      await response.arrayBuffer();
      const seconds = Math.min(Math.max(Number(response.headers.get('retry-after')) || 1, 1), MAX_WAIT_S);
      onWait?.({ seconds, path });
      await sleep(seconds, signal);
      continue;
    }
    let body;
    try {
      body = await response.json();
    } catch (error) {
      throw networkError(`GET ${path}: ${response.ok ? `not JSON (${error.message})` : `HTTP ${response.status}`}`, { status: response.status });
    }
    if (!response.ok) throw networkError(`GET ${path}: HTTP ${response.status}`, { status: response.status, body });
    return body;
  }
}

/** The manifest, as the arcade publishes it (signer, signing domain, signed marks). */
export const fetchManifest = (baseUrl, options) => getJson(baseUrl, '/api/arcade/manifest', options);

/**
 * The limits the arcade publishes (/api/arcade/games `limits`): `{max_wager_chips,
 * max_payout_chips}`, or null when it answers none (an error status, or no such positive whole
 * numbers): the audit then says so and holds no round to them, and judges the rest.
 */
export async function fetchLimits(baseUrl, options) {
  let limits;
  try {
    limits = (await getJson(baseUrl, '/api/arcade/games', options))?.limits;
  } catch (error) {
    if (error.network === true && error.status !== undefined) return null;
    throw error;
  }
  const whole = (x) => Number.isSafeInteger(x) && x > 0;
  if (!whole(limits?.max_wager_chips) || !whole(limits?.max_payout_chips)) return null;
  return { max_wager_chips: limits.max_wager_chips, max_payout_chips: limits.max_payout_chips };
}

/** Every published seed batch, without rows: the signed roots. */
export const fetchBatchList = (baseUrl, options) => getJson(baseUrl, '/api/arcade/seed-batches', options);

/**
 * One seed batch with every used index: its pages read in order, each from the `next_from` of
 * the one before until it is null. Commits go on while the pages are read, so `used` is the last
 * page's (it may only grow). A page that does not advance, names another root or size than the
 * first, lowers `used`, or lists more rows than the batch holds ends the reading: `paging` says
 * why (a `batch_listing` failure), null when every page held.
 */
export async function fetchBatch(baseUrl, batchId, options) {
  const path = (from) => `/api/arcade/seed-batches/${batchId}?from=${from}`;
  const first = await getJson(baseUrl, path(0), options);
  const { next_from: next, ...batch } = first;
  const rounds = [...(first.rounds ?? [])];
  let { used } = first;
  let paging = null;
  for (let from = next; from !== null && from !== undefined; ) {
    if (!Number.isSafeInteger(from) || from <= (rounds.at(-1)?.index ?? -1)) {
      paging = `next_from ${JSON.stringify(from)} does not advance past the rows read`;
      break;
    }
    if (!(rounds.length <= first.size)) {
      paging = `the pages list more rows than the batch's ${first.size} seeds`;
      break;
    }
    const page = await getJson(baseUrl, path(from), options);
    if (page.merkle_root !== first.merkle_root || page.size !== first.size) {
      paging = `the page from ${from} names another root or size than the first page`;
      break;
    }
    if (!(page.used >= used)) {
      paging = `the page from ${from} says ${page.used} indices are used, fewer than the ${used} of a page before`;
      break;
    }
    used = page.used;
    rounds.push(...(page.rounds ?? []));
    from = page.next_from;
  }
  return { ...batch, used, rounds, paging };
}

/** One used index of a seed batch with the batch's signed root: `{batch, row}`. */
export const fetchBatchRow = (baseUrl, batchId, index, options) =>
  getJson(baseUrl, `/api/arcade/seed-batches/${batchId}/rows/${index}`, options);

/**
 * The feed's receipts with bet ids in (after, until], page by page, in bet order: an async
 * iterator of arrays. Receipts past `until` are not read (they settled after the batches were
 * read). `state.problems` collects the `feed_paging` failures that ended the reading;
 * `state.last` is the last bet id read. `options` (`{signal, onWait}`) go to every read.
 */
export async function* feedPages(baseUrl, { after = 0, until = Infinity, page = PAGE, state = {}, options = {} }) {
  state.problems ??= [];
  state.last = after;
  let cursor = after;
  const stop = (why, betId = null) => state.problems.push({ check: 'feed_paging', bet_id: betId, why });
  while (cursor < until) {
    const answer = await getJson(baseUrl, `/api/arcade/receipts?after=${cursor}&limit=${page}`, options);
    const receipts = Array.isArray(answer?.receipts) ? answer.receipts : null;
    if (!receipts) return stop(`the page after bet ${cursor} has no receipts list`);
    const taken = [];
    for (const receipt of receipts) {
      const betId = receipt?.bet_id;
      if (!Number.isSafeInteger(betId)) return stop(`the page after bet ${cursor} holds a receipt without a bet id`);
      if (betId <= state.last) {
        yield taken;
        return stop(betId === state.last ? `bet ${betId} repeats` : `bet ${betId} comes after bet ${state.last}: the feed must strictly increase`, betId);
      }
      if (betId > until) break;
      taken.push(receipt);
      state.last = betId;
    }
    yield taken;
    if (taken.length < receipts.length || state.last >= until) return;
    const next = answer.next_after;
    if (next === null || next === undefined || receipts.length === 0) return;
    if (!(Number.isSafeInteger(next) && next > cursor)) return stop(`next_after ${next} does not advance past ${cursor}`);
    if (next !== state.last) return stop(`next_after ${next} is not the page's last bet ${state.last}`);
    cursor = next;
  }
}
