//! The one-line summary each tool result comes with (beside the structured content), read
//! from the service's own result types.

use salvo::oapi::ToSchema;
use serde::Serialize;

use crate::service::auth::Rotated;
use crate::service::cashouts::CashoutReceipt;
use crate::service::plays::Played;
use crate::service::receipts::VerifiedBet;
use crate::service::rounds::{Committed, RoundView};
use crate::service::stats::{GamesListing, HouseStats};
use crate::service::wallets::{Balance, FreeGrant};
use crate::siwx::Declaration;

/// What a tool says of its result in a sentence.
pub trait Summary {
    fn summary(&self) -> String;
}

/// `arcade_balance`: the balance, and the statement to sign for the address.
#[derive(Debug, Serialize, ToSchema)]
pub struct BalanceAnswer {
    #[serde(flatten)]
    pub balance: Balance,
    /// The exact text to sign with `personal_sign` (EIP-191): an EIP-4361 message, the same
    /// until the address rotates.
    pub auth_statement: String,
    /// The statement's generation (0 until the address rotates).
    pub auth_generation: i64,
}

impl Summary for FreeGrant {
    fn summary(&self) -> String {
        format!(
            "{} got {} free chips; balance {}.",
            self.address, self.granted, self.balance
        )
    }
}

impl Summary for GamesListing {
    fn summary(&self) -> String {
        let names: Vec<&str> = self.games.iter().map(|g| g.name.as_str()).collect();
        format!(
            "Games: {}. Max wager {} chips, max payout {} chips per round.",
            names.join(", "),
            self.limits.max_wager_chips,
            self.limits.max_payout_chips
        )
    }
}

impl Summary for Committed {
    fn summary(&self) -> String {
        format!(
            "Round {} opened; commitment {}. Play it once with your own fresh client_seed.",
            self.round_id, self.commitment
        )
    }
}

impl Summary for Played {
    fn summary(&self) -> String {
        let receipt = &self.receipt;
        let outcome = format!("result {}", receipt.result);
        let verdict = if receipt.won { "won" } else { "lost" };
        let replayed = if self.replayed {
            " (replayed: this call had settled the round already)"
        } else {
            ""
        };
        format!(
            "Bet {} ({}){replayed}: {outcome}, {verdict}; payout {}, profit {}, balance {} ({} of them free chips, play money). Server seed revealed: check sha256(server_seed) == commitment, or call arcade_verify.",
            receipt.bet_id,
            receipt.game.as_str(),
            receipt.payout,
            receipt.profit,
            self.balance,
            self.free_chips
        )
    }
}

impl Summary for VerifiedBet {
    fn summary(&self) -> String {
        format!(
            "Bet {}: {}, {}. Re-derivation checks {}.",
            self.receipt.bet_id,
            self.verdict.as_str(),
            self.reason,
            serde_json::to_string(&self.checks).unwrap_or_default()
        )
    }
}

impl Summary for BalanceAnswer {
    fn summary(&self) -> String {
        let b = &self.balance;
        format!(
            "{} holds {} chips: {} cashable (paid), {} free (play money) (bought in: {}).",
            b.address, b.chips, b.cashable, b.free_chips, b.bought_in
        )
    }
}

impl Summary for CashoutReceipt {
    fn summary(&self) -> String {
        format!(
            "Cashout {}: {} chips ({} base units) to {}, status {}; balance {}.",
            self.cashout_id, self.chips, self.amount, self.address, self.status, self.balance
        )
    }
}

impl Summary for RoundView {
    fn summary(&self) -> String {
        match &self.receipt {
            Some(receipt) => format!(
                "Round {} settled by bet {}: {} {}, payout {}.",
                self.round_id,
                receipt.bet_id,
                receipt.game.as_str(),
                if receipt.won { "won" } else { "lost" },
                receipt.payout
            ),
            None => format!(
                "Round {} of {} is {}; commitment {}.",
                self.round_id, self.address, self.state, self.commitment
            ),
        }
    }
}

impl Summary for Rotated {
    fn summary(&self) -> String {
        format!(
            "{} rotated to auth statement generation {}: older signatures are revoked, {} open rounds expired. Sign the new auth_statement.",
            self.auth_statement.address, self.auth_statement.generation, self.expired_rounds
        )
    }
}

impl Summary for HouseStats {
    fn summary(&self) -> String {
        let all = &self.all;
        format!(
            "{} rounds on the floor: {} wagered, {} paid out, house net {}.",
            all.rounds, all.wagered, all.paid_out, all.house_net
        )
    }
}

impl Summary for Declaration {
    fn summary(&self) -> String {
        format!(
            "A sign-in-with-x challenge for {}, to sign and use until {}: pass the encoded proof as sign_in_with_x.",
            self.info.domain, self.info.expiration_time
        )
    }
}
