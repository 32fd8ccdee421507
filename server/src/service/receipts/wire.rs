//! The proofs as answers carry them (`docs/proofs.md`): a seed's place in its batch, a
//! signature beside the typed data it signs, and the sets a commit answer and a receipt hold.

use alloy::primitives::Address;
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use crate::proofs::typed::TypedData;

/// A seed's place in its batch.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BatchPlace {
    pub batch_id: i64,
    pub index: i64,
    pub size: i64,
    /// Sibling hashes (hex) from the leaf up; the sides follow from `index` and `size`.
    pub audit_path: Vec<String>,
}

/// A signature with the typed data it signs (`{domain, types, primaryType, message}`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Signed {
    /// `0x` r ‖ s ‖ v (v 27 or 28), by the manifest's `signer`.
    pub signature: String,
    #[salvo(schema(value_type = Object))]
    pub typed_data: TypedData,
}

impl Signed {
    /// Who signed it: the address its signature recovers to over its typed data's EIP-712
    /// hash; `None` if either does not parse.
    pub fn signer(&self) -> Option<Address> {
        let typed: alloy::dyn_abi::TypedData =
            serde_json::from_value(self.typed_data.to_value()).ok()?;
        let hash = typed.eip712_signing_hash().ok()?;
        let signature: alloy::primitives::Signature = self.signature.parse().ok()?;
        signature.recover_address_from_prehash(&hash).ok()
    }
}

/// A commit answer's proofs.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct CommitProofs {
    pub batch: BatchPlace,
    pub commitment: Signed,
}

/// A receipt's proofs; all null for rounds opened before signing began.
#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema)]
pub struct ReceiptProofs {
    pub batch: Option<BatchPlace>,
    pub commitment: Option<Signed>,
    pub receipt: Option<Signed>,
    /// The player's own signature of the play (`Play`, signed by the receipt's `address`, not
    /// by the house); null for a play sent without `play_signature`.
    pub play: Option<Signed>,
}
