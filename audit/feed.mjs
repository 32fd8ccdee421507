// What the audit reads from the arcade: the manifest (who signs), the seed batches and every
// settled receipt, paged from the feed. A network or HTTP error is thrown with `network: true`
// (the command exits 2: nothing was judged).
const PAGE = 1000;

export async function getJson(baseUrl, path) {
  let response;
  try {
    response = await fetch(new URL(path, baseUrl));
  } catch (error) {
    throw Object.assign(new Error(`GET ${path}: ${error.cause?.message ?? error.message}`), { network: true });
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

/** The house's signer and EIP-712 domain, as the manifest publishes them. */
export async function fetchTrust(baseUrl) {
  const manifest = await getJson(baseUrl, '/api/arcade/manifest');
  return { signer: manifest.signer ?? null, domain: manifest.signing_domain ?? null };
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
