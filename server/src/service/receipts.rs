//! Settled rounds as receipts: what game calls return, `verify` re-derives and `recent` lists.

use std::sync::Arc;

use arcade_core::wire::{ParamsInput, ReceiptInput};
use arcade_core::{FAIRNESS_VERSION, Game, Receipt, verify};
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::proofs::{BetSignatures, Proofs, ReceiptProofs};
use super::seed_batches::SeedBatchError;
use super::settled_mark::SettledMark;
use super::{HouseWallets, rfc3339};
use crate::address;
use crate::service::error::{ServiceError, wraps_service_error};
use crate::store;
use crate::store::Db;
use crate::store::entities::{bet, round};

/// A settled round: everything needed to re-derive it (`server_seed` is left out of public
/// listings).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct BetReceipt {
    pub bet_id: i64,
    pub round_id: String,
    pub address: String,
    /// The game's name: one of `/games`.
    #[salvo(schema(value_type = String))]
    pub game: Game,
    pub fairness_version: u32,
    /// SHA-256 (hex) of `server_seed`, published before the client seed was known.
    pub commitment: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub server_seed: Option<String>,
    pub client_seed: String,
    pub nonce: i64,
    pub wager: i64,
    /// coinflip `{call}`, dice `{target, direction}`, roulette `{bet, number}`, limbo
    /// `{target_hundredths}`.
    #[salvo(schema(value_type = Object))]
    pub params: Value,
    /// coinflip `{outcome}`, dice `{roll, roll_hundredths, win_chance, multiplier, return_num,
    /// return_den}` (a win returns exactly `return_num / return_den` chips, the wager
    /// included; `multiplier` is that per chip, shown to 4 decimals), roulette `{pocket,
    /// color}`, limbo `{result_hundredths, crash_point}`.
    #[salvo(schema(value_type = Object))]
    pub result: Value,
    pub won: bool,
    /// Chips credited back, wager included; 0 on a loss.
    pub payout: i64,
    /// `payout - wager`.
    pub profit: i64,
    /// Chips of the wager that are play money: taken from the free pocket, which is staked
    /// first.
    pub free_wagered: i64,
    /// Chips of the payout that are play money: paid back to the free pocket, in proportion to
    /// its stake and rounded up (`ceil(payout * free_wagered / wager)`); the rest is cashable.
    pub free_paid: i64,
    pub settled_at: String,
    /// When the round was committed (its seed fixed).
    pub committed_at: String,
    /// Played by the house's own agents.
    pub house_agent: bool,
    /// The seed's batch and the house's signatures (`docs/proofs.md`); left out of public
    /// listings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proofs: Option<ReceiptProofs>,
}

/// A page of the audit feed.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Feed {
    pub receipts: Vec<BetReceipt>,
    /// The `after` of the next page; null when this page is the last.
    pub next_after: Option<i64>,
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

impl BetReceipt {
    /// A settled round's receipt, its seed and commitment read from the round.
    pub fn new(bet: &bet::Model, round: &round::Model) -> Result<Self, ServiceError> {
        let (params, result) = stored_call(bet)?;
        Self::from_values(bet, round, params, result)
    }

    /// The receipt of a bet whose call and result are at hand as JSON values (a freshly settled
    /// play: nothing parsed back from the stored text).
    pub fn from_values(
        bet: &bet::Model,
        round: &round::Model,
        params: Value,
        result: Value,
    ) -> Result<Self, ServiceError> {
        Self::build(
            bet,
            (&round.commitment, round.created_at),
            Some(round.server_seed.clone()),
            params,
            result,
        )
    }

    /// A public listing's receipt, from the bet's row alone (it holds the round's commitment
    /// and time): no server seed, the address truncated.
    fn public_of(bet: &bet::Model) -> Result<Self, ServiceError> {
        let (params, result) = stored_call(bet)?;
        let committed = (bet.commitment.as_str(), bet.committed_at);
        let receipt = Self::build(bet, committed, None, params, result)?;
        Ok(Self {
            address: address::truncated(&receipt.address),
            ..receipt
        })
    }

    fn build(
        bet: &bet::Model,
        (commitment, committed_at): (&str, i64),
        server_seed: Option<String>,
        params: Value,
        mut result: Value,
    ) -> Result<Self, ServiceError> {
        add_shown_return(
            bet.game.0,
            &params,
            u64::try_from(bet.wager).unwrap_or(0),
            &mut result,
        )?;
        Ok(Self {
            bet_id: bet.id,
            round_id: bet.round_id.clone(),
            address: address::display_key(&bet.address),
            game: bet.game.0,
            fairness_version: FAIRNESS_VERSION,
            commitment: commitment.to_owned(),
            server_seed,
            client_seed: bet.client_seed.clone(),
            nonce: bet.nonce,
            wager: bet.wager,
            params,
            result,
            won: bet.won,
            payout: bet.payout,
            profit: bet.profit,
            free_wagered: bet.free_wagered,
            free_paid: bet.free_paid,
            settled_at: rfc3339(bet.settled_at),
            committed_at: rfc3339(committed_at),
            house_agent: bet.house_agent.unwrap_or(false),
            proofs: None,
        })
    }

    /// Re-derives this receipt with `arcade-core` exactly as an outside verifier would.
    fn verify(self) -> Result<VerifiedBet, ServiceError> {
        let input: ReceiptInput =
            serde_json::from_value(json!(self)).map_err(ServiceError::internal)?;
        let receipt = Receipt::try_from(input).map_err(ServiceError::internal)?;
        let verification = verify(&receipt).map_err(ServiceError::internal)?;
        Ok(VerifiedBet {
            checks: json!(verification.checks),
            verified: verification.verified(),
            mismatches: json!(verification.mismatches),
            receipt: self,
        })
    }
}

/// Why a settled bet (or the feed of them) could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReceiptError {
    #[error("no settled bet {0}")]
    BetNotFound(i64),
    #[error(transparent)]
    SeedBatch(#[from] SeedBatchError),
    #[error(transparent)]
    Service(#[from] ServiceError),
}

wraps_service_error!(ReceiptError);

/// Receipts of settled rounds: one, the audit feed, the recent ones.
#[derive(Clone)]
pub struct Receipts {
    db: Db,
    house_wallets: HouseWallets,
    proofs: Proofs,
    /// The audit feed's bound, shared by its readers.
    settled_mark: Arc<SettledMark>,
}

impl Receipts {
    pub fn new(db: Db, house_wallets: HouseWallets, proofs: Proofs) -> Self {
        Self {
            db,
            house_wallets,
            proofs,
            settled_mark: Arc::default(),
        }
    }

    pub async fn verify_bet(&self, bet_id: i64) -> Result<VerifiedBet, ReceiptError> {
        let (bet, round) = store::rounds::bet(&self.db, bet_id)
            .await?
            .ok_or(ReceiptError::BetNotFound(bet_id))?;
        Ok(self.receipt(&bet, &round).await?.verify()?)
    }

    /// A settled round's receipt with its proofs.
    pub async fn receipt(
        &self,
        bet: &bet::Model,
        round: &round::Model,
    ) -> Result<BetReceipt, SeedBatchError> {
        let mut receipt = BetReceipt::new(bet, round)?;
        receipt.house_agent = self.house_agent(bet);
        let signatures = BetSignatures {
            receipt: bet.receipt_signature.as_deref(),
            play: bet.play_signature.as_deref(),
        };
        self.proofs.with_proofs(receipt, round, signatures).await
    }

    /// Whether the house's own wallets played `bet`: as recorded at settlement (and signed from
    /// the signed marks on), or, for bets settled before it was recorded, as the settings say.
    fn house_agent(&self, bet: &bet::Model) -> bool {
        bet.house_agent
            .unwrap_or_else(|| self.house_wallets.contains(&bet.address))
    }

    /// Every settled receipt after `after`, in bet order, seeds and proofs included; a page
    /// ends at the settled mark, so no later page can hold a lower id.
    pub async fn receipts_after(&self, after: i64, limit: u64) -> Result<Feed, ReceiptError> {
        let up_to = self.settled_mark.settled_up_to(&self.db).await?;
        let rows = store::rounds::settled_between(&self.db, after, up_to, limit).await?;
        let mut receipts = Vec::with_capacity(rows.len());
        for (bet, round) in &rows {
            receipts.push(self.receipt(bet, round).await?);
        }
        let full = u64::try_from(receipts.len()).unwrap_or(0) == limit;
        Ok(Feed {
            next_after: receipts.last().filter(|_| full).map(|r| r.bet_id),
            receipts,
        })
    }

    /// The newest settled rounds first; addresses truncated; no server seeds.
    pub async fn recent(&self, limit: u64) -> Result<Vec<BetReceipt>, ServiceError> {
        store::rounds::recent(&self.db, limit)
            .await?
            .iter()
            .map(|bet| {
                let mut receipt = BetReceipt::public_of(bet)?;
                receipt.house_agent = self.house_agent(bet);
                Ok(receipt)
            })
            .collect()
    }
}

/// A stored bet's call and result, parsed back from their JSON text.
fn stored_call(bet: &bet::Model) -> Result<(Value, Value), ServiceError> {
    let params = serde_json::from_str(&bet.params).map_err(ServiceError::internal)?;
    let result = serde_json::from_str(&bet.result).map_err(ServiceError::internal)?;
    Ok((params, result))
}

/// The exact return of a win, where the bet's game shows it on receipts (fairness v1 names it
/// for dice): a win pays `return_num / return_den` chips, the wager included (in lowest terms).
/// Added here, at the receipt, so the core's own result (and the golden vectors) stay as they
/// are.
fn add_shown_return(
    game: Game,
    params: &Value,
    wager: u64,
    result: &mut Value,
) -> Result<(), ServiceError> {
    let params: ParamsInput =
        serde_json::from_value(params.clone()).map_err(ServiceError::internal)?;
    let Some(exact) = params
        .to_call(game)
        .ok()
        .and_then(|call| call.shown_return(wager))
    else {
        return Ok(());
    };
    let (num, den) = (exact.numerator(), exact.denominator());
    let divisor = gcd(num, den).max(1);
    result["return_num"] = json!(u64::try_from(num / divisor).map_err(ServiceError::internal)?);
    result["return_den"] = json!(u64::try_from(den / divisor).map_err(ServiceError::internal)?);
    Ok(())
}

fn gcd(a: u128, b: u128) -> u128 {
    if b == 0 { a } else { gcd(b, a % b) }
}
