// What the audit reads from the arcade: the manifest (who signs), the seed batches and every
// settled receipt, paged from the feed. A 429 (the arcade limits reads of many rows) is waited
// out as its `Retry-After` says; a network or other HTTP error is thrown with `network: true`
// (the command exits 2: nothing was judged).
const PAGE = 1000;

/** Waits the arcade asks of a rate-limited read (429) before the audit gives up. */
const MAX_WAITS = 60;
/** Longest single wait, in seconds, whatever `Retry-After` says. */
const MAX_WAIT_S = 60;

export async function getJson(baseUrl, path) {
  for (let waits = 0; ; waits++) {
    let response;
    try {
      response = await fetch(new URL(path, baseUrl));
    } catch (error) {
      throw Object.assign(new Error(`GET ${path}: ${error.cause?.message ?? error.message}`), { network: true });
    }
    // The feed and the seed batches are heavy reads, limited per client: wait as told, then ask again.
    if (response.status === 429 && waits < MAX_WAITS) {
      await response.arrayBuffer();
      const seconds = Math.min(Math.max(Number(response.headers.get('retry-after')) || 1, 1), MAX_WAIT_S);
      await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
      continue;
    }
    if (!response.ok) {
      throw Object.assign(new Error(`GET ${path}: HTTP ${response.status}`), { network: true });
    }
    try {
      return await response.json();
    } catch (error) {
      throw Object.assign(new Error(`GET ${path}: not JSON (${error.message})`), { network: true });
    }
  }
}

/** The house's signer, EIP-712 domain and signed marks, as the manifest publishes them. */
export async function fetchTrust(baseUrl) {
  const manifest = await getJson(baseUrl, '/api/arcade/manifest');
  return { signer: manifest.signer ?? null, domain: manifest.signing_domain ?? null, marks: manifest.signed_marks ?? null };
}

/** Every settled receipt with bet_id > after, in bet order, at most `limit` (all when null). */
export async function fetchReceipts(baseUrl, { after = 0, limit = null } = {}) {
  const receipts = [];
  let cursor = after;
  while (limit === null || receipts.length < limit) {
    const page = await getJson(baseUrl, `/api/arcade/receipts?after=${cursor}&limit=${PAGE}`);
    receipts.push(...page.receipts);
    if (page.next_after === null || page.next_after === undefined || page.receipts.length === 0) break;
    cursor = page.next_after;
  }
  return limit === null ? receipts : receipts.slice(0, limit);
}

/** The newest bet id (0 when nothing was played), to audit only the last N rounds. */
export async function latestBetId(baseUrl) {
  const recent = await getJson(baseUrl, '/api/arcade/recent?limit=1');
  return recent[0]?.bet_id ?? 0;
}

/** Every published seed batch with its rounds. */
export async function fetchBatches(baseUrl) {
  const list = await getJson(baseUrl, '/api/arcade/seed-batches');
  const batches = [];
  for (const batch of list) batches.push(await getJson(baseUrl, `/api/arcade/seed-batches/${batch.batch_id}`));
  return batches;
}
