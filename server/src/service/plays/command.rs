//! A play as the service takes it: the game call from the edge (`Play`), and the same call once
//! the rules that need no database passed it, waiting for the writer (`Queued`).

use arcade_core::Call;

/// A game call, validated in shape (the edge did that) but not yet against the rules.
#[derive(Debug, Clone)]
pub struct Play {
    pub round_id: String,
    pub client_seed: String,
    pub wager: u64,
    pub call: Call,
    pub signature: Option<String>,
    /// The `SIGN-IN-WITH-X` header, when the request carried one: it must be the owner's.
    pub siwx: Option<String>,
    /// The player's EIP-712 `Play` signature, stored with the bet when it holds.
    pub play_signature: Option<String>,
    /// Whether the answer carries the address's next round, opened with this one's settlement.
    pub next_round: bool,
}

/// A play checked against the rules that need no database, waiting for the writer.
#[derive(Debug)]
pub struct Queued {
    pub play: Play,
    pub potential_profit: u64,
}
