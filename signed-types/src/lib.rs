//! The EIP-712 types the arcade signs (docs/proofs.md), each declared once with alloy's `sol!`
//! (`declarations.rs`). The server hashes them and prints their typed data from these
//! declarations; the signature checker (proofs-wasm) expects the member lists of
//! [`signed_types`]. no_std + alloc.
//!
//! ```
//! use alloy_sol_types::SolStruct;
//! use arcade_signed_types::{SignedMarks, members};
//!
//! let encode_type = SignedMarks::eip712_encode_type();
//! assert_eq!(encode_type, "SignedMarks(uint256 signed_from,uint256 house_agent_signed_from)");
//! let names: Vec<_> = members(&encode_type).map(|(_, name)| name).collect();
//! assert_eq!(names, ["signed_from", "house_agent_signed_from"]);
//! ```

#![no_std]

extern crate alloc;

mod declarations;

use alloc::borrow::Cow;

use alloy_sol_types::SolStruct;

pub use declarations::receipt::Receipt;
pub use declarations::receipt_with_house_agent::Receipt as ReceiptWithHouseAgent;
pub use declarations::{
    Commitment, Play, SeedBatch, SignedMarks, receipt, receipt_with_house_agent,
};

/// The name [`signed_types`] lists [`ReceiptWithHouseAgent`] by (EIP-712 names it `Receipt`).
pub const RECEIPT_WITH_HOUSE_AGENT: &str = "Receipt+house_agent";

/// Every signed type as `(listed name, encodeType)`: the name is the EIP-712 type's, except
/// [`RECEIPT_WITH_HOUSE_AGENT`]. The order is the one verifiers list them in.
pub fn signed_types() -> [(&'static str, Cow<'static, str>); 6] {
    [
        (Commitment::NAME, Commitment::eip712_encode_type()),
        (Receipt::NAME, Receipt::eip712_encode_type()),
        (
            RECEIPT_WITH_HOUSE_AGENT,
            ReceiptWithHouseAgent::eip712_encode_type(),
        ),
        (SeedBatch::NAME, SeedBatch::eip712_encode_type()),
        (SignedMarks::NAME, SignedMarks::eip712_encode_type()),
        (Play::NAME, Play::eip712_encode_type()),
    ]
}

/// The members `(type, name)` of a struct with no struct members, in order, read from its
/// `encodeType` (`Name(type name,type name,…)`). Nothing for text of another shape.
pub fn members(encode_type: &str) -> impl Iterator<Item = (&str, &str)> {
    let inner = encode_type
        .split_once('(')
        .and_then(|(_, rest)| rest.strip_suffix(')'))
        .unwrap_or("");
    inner.split(',').filter_map(|member| member.split_once(' '))
}
