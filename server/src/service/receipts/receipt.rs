//! A settled round as a receipt: built from its bet and round, and re-derived by `arcade-core`
//! exactly as an outside verifier would (`VerifiedBet`).

use alloy::primitives::Address;
use arcade_core::wire::{CallParams, ReceiptInput};
use arcade_core::{Call, Checks, FAIRNESS_VERSION, Game, GameResult, Mismatch, Receipt, verify};
use salvo::oapi::ToSchema;
use serde::{Serialize, Serializer};
use serde_json::json;

use super::shown_result::ShownResult;
use super::stored_bets::stored_call;
use super::verdict::{self, Judged, Verdict};
use super::wire::ReceiptProofs;
use crate::address;
use crate::service::error::ServiceError;
use crate::service::rfc3339;
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
    pub(super) fn public_of(bet: &bet::Model) -> Result<Self, ServiceError> {
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
    pub(super) fn verify(
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

/// A call as a receipt's `params` show it.
fn call_params<S: Serializer>(call: &Call, serializer: S) -> Result<S::Ok, S::Error> {
    CallParams(call).serialize(serializer)
}
