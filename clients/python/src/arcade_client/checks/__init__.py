"""The verdict composition of the arcade's shared checking module (audit/verdicts.mjs,
audit/trust.mjs, audit/batches.mjs, audit/proofs.mjs), ported as thin glue: which checks run, in
which order, under which names. Every check itself (re-derivation, typed-data hashes, signer
recovery, Merkle proofs, the messages a receipt calls for) is a call into the wasm module."""
