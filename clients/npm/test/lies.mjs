// The lies a lying house tells, for the proxy's `rewrite`: each one field of what the arcade
// answers changed, and the check of the shared verdict that must catch it.

const isPlay = (method, path) => method === 'POST' && /^\/api\/arcade\/(flip|dice|roulette|limbo)$/.test(path);
/** A rewrite of the play answers only. */
export const onPlay = (change) => (method, path, json) => (isPlay(method, path) ? (change(json), json) : undefined);
const flipHex = (hex) => hex.slice(0, -1) + (hex.endsWith('0') ? '1' : '0');

/** Every `merkle_root` in an answer about seed batches (the list, one batch, a batch's row) changed. */
function lieAboutRoots(method, path, json) {
  if (!path.startsWith('/api/arcade/seed-batches')) return undefined;
  const walk = (value) => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === 'object') {
      for (const [key, inner] of Object.entries(value)) {
        if (key === 'merkle_root' && typeof inner === 'string') value[key] = flipHex(inner);
        else walk(inner);
      }
    }
  };
  walk(json);
  return json;
}

/** `[what is rewritten, rewrite, the check that names it]`, for a round of coinflip. */
export const PLAY_LIES = [
  ['the outcome (result.outcome)', onPlay((r) => { r.result.outcome = r.result.outcome === 'heads' ? 'tails' : 'heads'; }), 'rederive'],
  ['the payout', onPlay((r) => { r.payout += 1; }), 'rederive'],
  ['the server seed', onPlay((r) => { r.server_seed = flipHex(r.server_seed); }), 'rederive'],
  ['the signature (proofs.receipt.signature)', onPlay((r) => { r.proofs.receipt.signature = `${r.proofs.receipt.signature.slice(0, 10)}${flipHex(r.proofs.receipt.signature.slice(10, 12))}${r.proofs.receipt.signature.slice(12)}`; }), 'receipt_signature'],
  ['the batch root (seed batches, merkle_root)', lieAboutRoots, 'batch_signature'],
  ['the audit path (proofs.batch.audit_path[0])', onPlay((r) => { r.proofs.batch.audit_path[0] = flipHex(r.proofs.batch.audit_path[0]); }), 'inclusion'],
];

/** A manifest naming another signer (the pinned one must hold). */
export const OTHER_SIGNER = '0x000000000000000000000000000000000000dEaD';
export const lieAboutSigner = (method, path, json) => (path === '/api/arcade/manifest' ? { ...json, signer: OTHER_SIGNER } : undefined);
