//! Settled rounds as receipts: what game calls return, `verify` re-derives and `recent` lists.

use arcade_core::wire::ReceiptInput;
use arcade_core::{FAIRNESS_VERSION, Receipt, verify};
use salvo::oapi::ToSchema;
use sea_orm::{EntityTrait, QueryOrder, QuerySelect};
use serde::Serialize;
use serde_json::{Value, json};

use super::{Arcade, rfc3339};
use crate::address;
use crate::entities::{bet, round};
use crate::error::ApiError;

/// A settled round: everything needed to re-derive it (`server_seed` is left out of public
/// listings).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BetReceipt {
    pub bet_id: i64,
    pub round_id: String,
    pub address: String,
    /// `coinflip`, `dice` or `roulette`.
    pub game: String,
    pub fairness_version: u32,
    /// SHA-256 (hex) of `server_seed`, published before the client seed was known.
    pub commitment: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_seed: Option<String>,
    pub client_seed: String,
    pub nonce: i64,
    pub wager: i64,
    /// coinflip `{call}`, dice `{target, direction}`, roulette `{bet, number}`.
    #[salvo(schema(value_type = Object))]
    pub params: Value,
    /// coinflip `{outcome}`, dice `{roll, roll_hundredths, win_chance, multiplier}`,
    /// roulette `{pocket, color}`.
    #[salvo(schema(value_type = Object))]
    pub result: Value,
    pub won: bool,
    /// Chips credited back, wager included; 0 on a loss.
    pub payout: i64,
    /// `payout - wager`.
    pub profit: i64,
    pub settled_at: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct VerifiedBet {
    #[serde(flatten)]
    pub receipt: BetReceipt,
    /// `{commitment, outcome, payout}`: each true when the stored value re-derives.
    #[salvo(schema(value_type = Object))]
    pub checks: Value,
    pub verified: bool,
    /// What differs, if anything: `{check, field, derived, claimed}`.
    #[salvo(schema(value_type = Vec<Object>))]
    pub mismatches: Value,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct RecentBets {
    /// Newest first; addresses truncated; no server seeds.
    pub rounds: Vec<BetReceipt>,
}

impl BetReceipt {
    pub fn new(bet: &bet::Model, round: &round::Model) -> Result<Self, ApiError> {
        Ok(Self {
            bet_id: bet.id,
            round_id: bet.round_id.clone(),
            address: address::display_key(&bet.address),
            game: bet.game.clone(),
            fairness_version: FAIRNESS_VERSION,
            commitment: round.commitment.clone(),
            server_seed: Some(round.server_seed.clone()),
            client_seed: bet.client_seed.clone(),
            nonce: bet.nonce,
            wager: bet.wager,
            params: serde_json::from_str(&bet.params).map_err(ApiError::internal)?,
            result: serde_json::from_str(&bet.result).map_err(ApiError::internal)?,
            won: bet.won,
            payout: bet.payout,
            profit: bet.profit,
            settled_at: rfc3339(bet.settled_at),
        })
    }

    fn public(mut self) -> Self {
        self.server_seed = None;
        self.address = address::truncated(&self.address);
        self
    }

    /// Re-derives this receipt with `arcade-core` exactly as an outside verifier would.
    fn verify(self) -> Result<VerifiedBet, ApiError> {
        let input: ReceiptInput =
            serde_json::from_value(json!(self)).map_err(ApiError::internal)?;
        let receipt = Receipt::try_from(input).map_err(ApiError::internal)?;
        let verification = verify(&receipt).map_err(ApiError::internal)?;
        Ok(VerifiedBet {
            checks: json!(verification.checks),
            verified: verification.verified(),
            mismatches: json!(verification.mismatches),
            receipt: self,
        })
    }
}

impl Arcade {
    pub async fn verify_bet(&self, bet_id: i64) -> Result<VerifiedBet, ApiError> {
        let found = bet::Entity::find_by_id(bet_id)
            .find_also_related(round::Entity)
            .one(&self.db)
            .await?;
        let Some((bet, Some(round))) = found else {
            return Err(ApiError::BetNotFound(bet_id));
        };
        BetReceipt::new(&bet, &round)?.verify()
    }

    pub async fn recent(&self, limit: u64) -> Result<RecentBets, ApiError> {
        let rows = bet::Entity::find()
            .find_also_related(round::Entity)
            .order_by_desc(bet::Column::Id)
            .limit(limit)
            .all(&self.db)
            .await?;
        let rounds = rows
            .iter()
            .filter_map(|(bet, round)| {
                Some(BetReceipt::new(bet, round.as_ref()?).map(BetReceipt::public))
            })
            .collect::<Result<_, _>>()?;
        Ok(RecentBets { rounds })
    }
}
