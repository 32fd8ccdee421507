//! Settled rounds as receipts: what game calls return, `verify` re-derives and `recent` lists.

use std::sync::Arc;

use alloy::primitives::Address;
use arcade_core::wire::{CallParams, ReceiptInput};
use arcade_core::{Call, Checks, FAIRNESS_VERSION, Game, GameResult, Mismatch, Receipt, verify};
use salvo::oapi::ToSchema;
use serde::{Serialize, Serializer};
use serde_json::json;

use super::proofs::{BetSignatures, Proofs, ReceiptProofs};
use super::seed_batches::SeedBatchError;
use super::settled_mark::SettledMark;
use super::shown_result::ShownResult;
use super::stored_bets::stored_call;
use super::verdict::{self, Judged, Verdict};
use super::{HouseWallets, rfc3339};
use crate::address;
use crate::rate_limits::Caller;
use crate::service::error::{ServiceError, wraps_service_error};
use crate::store;
use crate::store::Db;
use crate::store::entities::{bet, round};

/// A settled round: everything needed to re-derive it (`server_seed` is left out of public
/// listings).
#[derive(Debug, Clone, Serialize, ToSchema)]
pub struct BetReceipt {
    pub bet_id: i64,
    pub round_id: String,
    pub address: String,
    /// The game's name: one of `/api/arcade/games`.
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
    #[serde(serialize_with = "call_params")]
    pub params: Call,
    /// coinflip `{outcome}`, dice `{roll, roll_hundredths, win_chance, multiplier, return_num,
    /// return_den}` (a win returns exactly `return_num / return_den` chips, the wager
    /// included; `multiplier` is that per chip, shown to 4 decimals), roulette `{pocket,
    /// color}`, limbo `{result_hundredths, crash_point}`.
    #[salvo(schema(value_type = Object))]
    pub result: ShownResult,
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
    /// The seed's batch and the house's signatures (`/docs/proofs.md`); left out of public
    /// listings.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub proofs: Option<ReceiptProofs>,
}

/// A page of the audit feed.
#[derive(Debug, Serialize, ToSchema)]
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
    pub checks: Checks,
    /// `pass`, `consistent, not proven` or `fail`, as every verifier words it.
    #[salvo(schema(value_type = String))]
    pub verdict: Verdict,
    /// Why, in a sentence.
    pub reason: String,
    /// What differs, if anything: `{check, field, derived, claimed}`.
    #[salvo(schema(value_type = Vec<Object>))]
    pub mismatches: Vec<Mismatch>,
}

impl BetReceipt {
    /// A settled round's receipt, its seed and commitment read from the round.
    pub fn new(bet: &bet::Model, round: &round::Model) -> Result<Self, ServiceError> {
        let (call, result) = stored_call(bet)?;
        Self::settled(bet, round, call, result)
    }

    /// The receipt of a bet whose call and result are at hand (a freshly settled play: nothing
    /// read back from the stored text).
    pub fn settled(
        bet: &bet::Model,
        round: &round::Model,
        call: Call,
        result: GameResult,
    ) -> Result<Self, ServiceError> {
        Self::build(
            bet,
            (&round.commitment, round.created_at),
            Some(round.server_seed.clone()),
            call,
            result,
        )
    }

    /// A public listing's receipt, from the bet's row alone (it holds the round's commitment
    /// and time): no server seed, the address truncated.
    fn public_of(bet: &bet::Model) -> Result<Self, ServiceError> {
        let (call, result) = stored_call(bet)?;
        let committed = (bet.commitment.as_str(), bet.committed_at);
        let receipt = Self::build(bet, committed, None, call, result)?;
        Ok(Self {
            address: address::truncated(&receipt.address),
            ..receipt
        })
    }

    fn build(
        bet: &bet::Model,
        (commitment, committed_at): (&str, i64),
        server_seed: Option<String>,
        call: Call,
        result: GameResult,
    ) -> Result<Self, ServiceError> {
        let wager = u64::try_from(bet.wager).unwrap_or(0);
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
            params: call,
            result: ShownResult::new(&call, result, wager)?,
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
    /// `house`: the house's signer, whose the Commitment and Receipt must be; `batch_root`: the
    /// signed root of its seed's batch.
    fn verify(
        self,
        house: Address,
        batch_root: Option<[u8; 32]>,
    ) -> Result<VerifiedBet, ServiceError> {
        let input: ReceiptInput =
            serde_json::from_value(json!(self)).map_err(ServiceError::internal)?;
        let receipt = Receipt::try_from(input).map_err(ServiceError::internal)?;
        let verification = verify(&receipt).map_err(ServiceError::internal)?;
        let (verdict, reason) = verdict::judge(&Judged {
            rederived: verification.verified(),
            proofs: self.proofs.as_ref(),
            house,
            player: &self.address,
            house_agent: self.house_agent,
            commitment: &self.commitment,
            batch_root,
        });
        Ok(VerifiedBet {
            checks: verification.checks,
            verdict,
            reason,
            mismatches: verification.mismatches,
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

impl crate::refusal::Refusal for ReceiptError {
    fn kind(&self) -> crate::refusal::ErrorKind {
        match self {
            Self::BetNotFound(_) => crate::refusal::BET_NOT_FOUND,
            Self::SeedBatch(refused) => refused.kind(),
            Self::Service(failed) => failed.kind(),
        }
    }

    fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::BetNotFound(_) => None,
            Self::SeedBatch(refused) => refused.retry_after_s(),
            Self::Service(failed) => failed.retry_after_s(),
        }
    }
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

    /// Bet `bet_id`'s receipt re-derived and judged, for `caller` (priced as a read of its
    /// seed's row).
    pub async fn verify_bet(
        &self,
        caller: Caller,
        bet_id: i64,
    ) -> Result<VerifiedBet, ReceiptError> {
        let (bet, round) = store::rounds::bet(&self.db, bet_id)
            .await?
            .ok_or(ReceiptError::BetNotFound(bet_id))?;
        let house = self.proofs.house_signer();
        let batch_root = match round.batch_id {
            Some(batch_id) => Some(self.proofs.batch_root(batch_id).await?),
            None => None,
        };
        Ok(self
            .read_receipt(caller, &bet, &round)
            .await?
            .verify(house, batch_root)?)
    }

    /// A settled round's receipt for a reader (`caller`), priced as a read of its seed's row:
    /// a reader of old rounds pays for the tree the answer builds.
    pub async fn read_receipt(
        &self,
        caller: Caller,
        bet: &bet::Model,
        round: &round::Model,
    ) -> Result<BetReceipt, SeedBatchError> {
        let _reading = self.proofs.begin_read(caller, round).await?;
        self.receipt(bet, round).await
    }

    /// A settled round's receipt with its proofs.
    pub async fn receipt(
        &self,
        bet: &bet::Model,
        round: &round::Model,
    ) -> Result<BetReceipt, SeedBatchError> {
        let mut round = round.clone();
        self.proofs.fill_server_seed(&self.db, &mut round).await?;
        let mut receipt = BetReceipt::new(bet, &round)?;
        receipt.house_agent = self.house_agent(bet);
        let signatures = BetSignatures {
            receipt: bet.receipt_signature.as_deref(),
            play: bet.play_signature.as_deref(),
        };
        self.proofs.with_proofs(receipt, &round, signatures).await
    }

    /// Whether the house's own wallets played `bet`: as recorded at settlement (and signed from
    /// the signed marks on), or, for bets settled before it was recorded, as the settings say.
    fn house_agent(&self, bet: &bet::Model) -> bool {
        bet.house_agent
            .unwrap_or_else(|| self.house_wallets.contains(&bet.address))
    }

    /// Every settled receipt after `after`, in bet order, seeds and proofs included; a page
    /// ends at the settled mark, so no later page can hold a lower id.
    /// `caller` holds the page's heavy read; the trees the page builds are drawn beside it.
    pub async fn receipts_after(
        &self,
        caller: Caller,
        after: i64,
        limit: u64,
    ) -> Result<Feed, ReceiptError> {
        let up_to = self.settled_mark.settled_up_to(&self.db).await?;
        let rows = store::rounds::settled_between(&self.db, after, up_to, limit).await?;
        self.proofs.price_builds(caller, limit, &rows).await?;
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

/// A call as a receipt's `params` show it.
fn call_params<S: Serializer>(call: &Call, serializer: S) -> Result<S::Ok, S::Error> {
    CallParams(call).serialize(serializer)
}
