//! One `sol!` declaration per signed type, member for member as docs/proofs.md lists them.
//! EIP-712 hashes a struct by its name and its members in this order: changing either changes
//! every signature of that type.

use alloy_sol_types::sol;

sol! {
    /// What the house commits to before it sees the client seed.
    struct Commitment {
        string round_id;
        address player;
        bytes32 commitment;
        uint256 batch_id;
        uint256 index;
        uint256 fairness_version;
        uint256 created_at;
    }

    /// A batch of seeds, fixed before its first seed is used.
    struct SeedBatch {
        uint256 batch_id;
        uint256 size;
        bytes32 merkle_root;
        uint256 created_at;
    }

    /// From which bet on every receipt carries its proofs, and from which on it signs
    /// `house_agent`.
    struct SignedMarks {
        uint256 signed_from;
        uint256 house_agent_signed_from;
    }

    /// Signed by the player, not the house: the round, the commitment they were shown and
    /// their call, before the outcome exists.
    struct Play {
        string round_id;
        address player;
        bytes32 commitment;
        string game;
        string client_seed;
        string call;
        uint256 target;
        bool has_number;
        uint256 number;
        uint256 wager;
    }
}

/// `Receipt`, with `$($last)*` as its last members: nothing for bets below the signed marks'
/// `house_agent_signed_from`, `bool house_agent;` from it on. Both types are named `Receipt`.
macro_rules! receipt {
    ($($last:tt)*) => {
        ::alloy_sol_types::sol! {
            /// Every field that fixes a settled round's outcome and payout.
            struct Receipt {
                string round_id;
                uint256 bet_id;
                address player;
                string game;
                bytes32 commitment;
                bytes32 server_seed;
                string client_seed;
                uint256 nonce;
                string call;
                uint256 target;
                bool has_number;
                uint256 number;
                uint256 wager;
                uint256 outcome;
                bool won;
                uint256 payout;
                int256 balance_change;
                uint256 batch_id;
                uint256 index;
                uint256 fairness_version;
                uint256 settled_at;
                $($last)*
            }
        }
    };
}

/// `Receipt` of bets below the signed marks' `house_agent_signed_from`.
pub mod receipt {
    receipt!();
}

/// `Receipt` of bets at or above the signed marks' `house_agent_signed_from`: the members of
/// [`receipt::Receipt`] and `bool house_agent` last.
pub mod receipt_with_house_agent {
    receipt!(bool house_agent;);
}
