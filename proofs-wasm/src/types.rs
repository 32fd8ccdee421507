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

/**
 * `checkSigned`'s second argument (as JSON text): signer and domain from the manifest. For a
 * `Receipt` whose `message` has `house_agent`, the member list expected is the one ending with
 * `bool house_agent` (`signedTypes()["Receipt+house_agent"]`); otherwise `signedTypes()[primaryType]`.
 */
export interface Expectation {
  signer: string;
  domain: Record<string, unknown>;
  primaryType: "Commitment" | "Receipt" | "SeedBatch" | "SignedMarks" | "Play";
  message: Record<string, unknown>;
}

/** The manifest's `signed_marks` (only the two numbers are read by `expectedReceiptMessages`). */
export interface SignedMarks {
  /** Every receipt with `bet_id` at or above it must carry its proofs. */
  signed_from: number;
  /** Every receipt with `bet_id` at or above it signs `house_agent`. */
  house_agent_signed_from: number;
  signature?: string;
  typed_data?: TypedData;
}

/** `checkSigned`'s answer (JSON text). */
export interface SignedReport {
  valid: boolean;
  /** EIP-55; null when no signer could be recovered. */
  recovered: string | null;
  /** One readable sentence per difference; empty when valid. */
  problems: string[];
}

/**
 * `expectedReceiptMessages`'s answer (JSON text). `receipt_type` only when the marks were given:
 * the member list the receipt is signed with, as `signedTypes` names it.
 */
export type ExpectedReceiptMessages =
  | {
      commitment: Record<string, unknown>;
      receipt: Record<string, unknown>;
      receipt_type?: "Receipt" | "Receipt+house_agent";
      /** The `Play` the receipt's `address` signed (check it with that address as `signer`). */
      play: PlayMessage;
    }
  | { unsigned: true };

/** `playTypedData`'s first argument (as JSON text): the commit answer's keys and the call. */
export interface PlayCall {
  round_id: string;
  /** The round's owner: the commit answer's `address`. */
  address: string;
  /** The commit answer's `commitment` (64 hex, `0x` optional). */
  commitment: string;
  game: "coinflip" | "dice" | "roulette";
  client_seed: string;
  wager: number;
  /** As the game body gives them: coinflip `{call}`, dice `{target, direction?}`, roulette `{bet, number?}`. */
  params: Record<string, unknown>;
}

/** The `Play` message. */
export interface PlayMessage {
  round_id: string;
  player: string;
  commitment: string;
  game: string;
  client_seed: string;
  call: string;
  target: number;
  has_number: boolean;
  number: number;
  wager: number;
}

/** `playTypedData`'s answer (JSON text): typed data any EIP-712 signer signs as it is. */
export interface PlayTypedData extends TypedData {
  primaryType: "Play";
  message: PlayMessage & Record<string, unknown>;
}

/** `expectedSignedMarksMessage`'s answer (JSON text). */
export interface SignedMarksMessage { signed_from: number; house_agent_signed_from: number }
"#;

#[cfg(test)]
mod tests {
    use crate::check::signed_type;

    /// This file: the section `wasm-bindgen` hands to the `.d.ts` is not a constant at run time.
    const TYPES: &str = include_str!("types.rs");

    /// The member names of `export interface {name} { … }`, in order (comments skipped).
    fn interface_members(name: &str) -> Vec<&'static str> {
        let start = TYPES
            .find(&format!("export interface {name} {{"))
            .unwrap_or_else(|| panic!("no interface {name}"));
        let body = &TYPES[start..];
        let body = &body[body.find('{').unwrap() + 1..body.find('}').unwrap()];
        body.split(['\n', ';'])
            .map(str::trim)
            .filter(|part| !part.starts_with("/*") && !part.starts_with('*'))
            .filter_map(|part| part.split_once(':').map(|(member, _)| member.trim()))
            .collect()
    }

    /// The TypeScript messages list the members of their signed types, in the same order.
    #[test]
    fn the_typescript_messages_are_the_signed_types() {
        for (interface, signed) in [
            ("PlayMessage", "Play"),
            ("SignedMarksMessage", "SignedMarks"),
        ] {
            let declared: Vec<String> = signed_type(signed)
                .unwrap()
                .into_iter()
                .map(|field| field.name)
                .collect();
            assert_eq!(interface_members(interface), declared, "{interface}");
        }
    }
}
