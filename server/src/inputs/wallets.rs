//! Inputs about an address and its chips: free chips and commit (`{address, signature?}`), a
//! balance or auth statement (`{address}` in the path), a cashout and its status.

use arcade_core::Limits;
use rmcp::schemars::JsonSchema;
use serde::Deserialize;

use super::fields::WalletAddress;
use super::{Input, Place};

/// `POST /api/arcade/free` and `POST /api/arcade/commit` (MCP `arcade_free`, `arcade_commit`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct AddressInput {
    /// The wallet address, `0x` + 40 hex characters, any case.
    pub address: WalletAddress,
    /// Your EIP-191 `personal_sign` signature (`0x` + 130 hex) of the exact statement from
    /// `GET /api/arcade/auth-statement/{address}` (MCP: `auth_statement` in `arcade_balance`).
    /// Required to commit (a sign-in-with-x proof may stand in for it: the `SIGN-IN-WITH-X`
    /// header over REST, `sign_in_with_x` over MCP; when both are given both must hold);
    /// optional for free chips, where it must be the address's own.
    #[schemars(length(max = 256))]
    pub signature: Option<String>,
}

impl Input for AddressInput {
    const PLACE: Place = Place::Body;
}

/// `POST /api/arcade/auth/rotate` (MCP `arcade_rotate`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct RotateInput {
    /// The wallet address, `0x` + 40 hex characters, any case.
    pub address: WalletAddress,
    /// Your signature of the address's current auth statement (or a sign-in-with-x proof
    /// instead: the `SIGN-IN-WITH-X` header over REST, `sign_in_with_x` over MCP). Once rotated, signatures of it (and of every older
    /// statement) and sign-in-with-x proofs issued before are refused: 401 `signature_revoked`,
    /// or 403 `signature_mismatch` for a statement more than two rotations old.
    #[schemars(length(max = 256))]
    pub signature: Option<String>,
}

impl Input for RotateInput {
    const PLACE: Place = Place::Body;
}

/// `GET /api/arcade/balance/{address}` and `/auth-statement/{address}` (MCP `arcade_balance`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct AddressPath {
    /// A wallet address, `0x` + 40 hex characters, any case.
    pub address: WalletAddress,
}

impl Input for AddressPath {
    const PLACE: Place = Place::Path;
}

/// `POST /api/arcade/cashout` (MCP `arcade_cashout`).
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct CashoutInput {
    /// The address whose chips are redeemed, and where the tokens go.
    pub address: WalletAddress,
    /// Chips to redeem, 100 to 250000 (100 base units of the token, 0.0001 USD, each). At most
    /// `cashable` from the balance: the paid chips; free chips (play money) stay behind.
    #[schemars(
        range(min = Limits::SPEC.min_cashout_chips, max = Limits::SPEC.max_cashout_chips),
        example = 500
    )]
    pub chips: i64,
    /// The signature of the address's auth statement (as for commit); a sign-in-with-x proof
    /// may stand in for it (the `SIGN-IN-WITH-X` header over REST, `sign_in_with_x` over MCP).
    /// One of them is required.
    #[schemars(length(max = 256))]
    pub signature: Option<String>,
    /// Optional: your key for this cashout, 1 to 255 visible ASCII characters (a fresh UUID
    /// per cashout). Sent again with the same body after a lost answer, it answers the original
    /// cashout as it stands and sends nothing again; with other chips, 409
    /// `idempotency_key_conflict`. Over REST the `Idempotency-Key` header carries it as well.
    #[schemars(length(min = 1, max = 255), example = &"8e03978e-40d5-43e8-bc93-6894a57f9324")]
    pub idempotency_key: Option<String>,
}

impl Input for CashoutInput {
    const PLACE: Place = Place::Body;
}

/// `GET /api/arcade/cashout/{cashout_id}`.
#[derive(Debug, Clone, Deserialize, JsonSchema)]
pub struct CashoutPath {
    /// From the cashout's answer.
    #[schemars(range(min = 1, max = i64::MAX), example = 1)]
    pub cashout_id: i64,
}

impl Input for CashoutPath {
    const PLACE: Place = Place::Path;
}
