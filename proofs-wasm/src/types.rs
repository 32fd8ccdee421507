//! TypeScript types of the JSON the exported functions take and return, written once.

use wasm_bindgen::prelude::*;

#[wasm_bindgen(typescript_custom_section)]
const TYPES: &'static str = r#"
/** Errors thrown by every function: a real `Error` with a stable `code`. */
export interface ProofsError extends Error {
  code: "invalid_typed_data" | "invalid_signature" | "invalid_input";
}

/** `{name, type}` of one struct member. */
export interface TypedField { name: string; type: string }

/** What `typedDataHash` and `recoverTypedDataSigner` take (as JSON text). */
export interface TypedData {
  domain: Record<string, unknown>;
  types: Record<string, TypedField[]>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** A signed object as the arcade sends it (`checkSigned`'s first argument, as JSON text). */
export interface Signed { signature: string; typed_data: TypedData }

/** `checkSigned`'s second argument (as JSON text): signer and domain from the manifest. */
export interface Expectation {
  signer: string;
  domain: Record<string, unknown>;
  primaryType: "Commitment" | "Receipt" | "SeedBatch";
  message: Record<string, unknown>;
}

/** `checkSigned`'s answer (JSON text). */
export interface SignedReport {
  valid: boolean;
  /** EIP-55; null when no signer could be recovered. */
  recovered: string | null;
  /** One readable sentence per difference; empty when valid. */
  problems: string[];
}

/** `expectedReceiptMessages`'s answer (JSON text). */
export type ExpectedReceiptMessages =
  | { commitment: Record<string, unknown>; receipt: Record<string, unknown> }
  | { unsigned: true };
"#;
