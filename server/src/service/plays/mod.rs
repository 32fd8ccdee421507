//! Playing a round (every game shares this): check the call and the wager, then queue
//! the play for the writer (`group_commit.rs`, `batch.rs`), which spends the round, takes the wager, settles
//! with `arcade-core`, pays out and records the bet in one transaction that either happens
//! whole or not at all. A repeat of the call that settled a round (a client whose connection
//! dropped) gets the original receipt, marked `replayed`.

pub mod batch;
mod book;
pub mod command;
pub mod error;

use std::sync::Arc;

use arcade_core::Limits;
use salvo::oapi::ToSchema;
use serde::Serialize;

use super::auth::{AddressProof, Auth, AuthError};
use super::books::Books;
use super::group_commit::GroupWriter;
use super::now_ms;
use super::receipts::Receipts;
use super::receipts::proofs::{BetSignatures, Proofs};
use super::receipts::receipt::BetReceipt;
use super::receipts::stored_bets::stored_call;
use super::rounds::clock::RoundClock;
use super::rounds::ids::is_issued_form;
use super::rounds::{Committed, committed};
use crate::address;
use crate::identity::SignatureError;
use crate::service::error::ServiceError;
use crate::siwx::Window;
use crate::store;
use crate::store::Db;
use crate::store::entities::bet;
use crate::store::entities::round::{self, RoundState};
use batch::{Outcome, PlayBatches, Settled};
pub use command::{Play, Queued};
pub use error::PlayError;

#[derive(Debug, Serialize, ToSchema)]
pub struct Played {
    #[serde(flatten)]
    pub receipt: BetReceipt,
    /// Chips just after this round settled (a replayed answer too: the balance its receipt
    /// settled to, whatever moved since; `GET /api/arcade/balance/{address}` has the current one).
    pub balance: i64,
    /// The chips of `balance` that are play money (free chips and what they won); the rest,
    /// `balance - free_chips`, is cashable.
    pub free_chips: i64,
    /// `true` when this answers a repeat of the call that already settled the round: the
    /// original receipt, nothing played again.
    pub replayed: bool,
    /// Asked for with `next_round`: the address's next round, opened in the transaction that
    /// settled this one (before any client seed for it exists), as `POST /api/arcade/commit`
    /// answers one. A repeat of the call carries it again only when it proves the owner
    /// (`signature` or `SIGN-IN-WITH-X`): anyone can repeat a call from its public receipt.
    /// Absent when no seed was left this instant: commit as usual.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_round: Option<Committed>,
}

/// Playing rounds: the checks a request makes, and the queue into the play writer.
#[derive(Clone)]
pub struct Plays {
    db: Db,
    limits: Limits,
    clock: RoundClock,
    auth: Auth,
    proofs: Proofs,
    /// A replayed call answers the stored receipt.
    receipts: Receipts,
    /// The queue into the one writer that settles plays in batches.
    pub writer: Arc<GroupWriter<PlayBatches>>,
    /// No play is taken before the books matched the chain once.
    books: Books,
}

impl Plays {
    /// The plays of `batches`, settled by a writer of their own (telling `committed` after each
    /// batch commits).
    pub fn new(
        batches: PlayBatches,
        committed: Arc<tokio::sync::Notify>,
        auth: Auth,
        receipts: Receipts,
        books: Books,
    ) -> Self {
        Self {
            db: batches.db.clone(),
            limits: batches.limits,
            clock: batches.clock,
            proofs: batches.proofs.clone(),
            auth,
            receipts,
            writer: Arc::new(GroupWriter::new(batches, committed)),
            books,
        }
    }

    pub async fn play(&self, mut play: Play) -> Result<Played, PlayError> {
        // A text the house never issued names no round; it goes no further than here.
        if !is_issued_form(&play.round_id) {
            return Err(PlayError::RoundNotFound(play.round_id));
        }
        // Rules that need no database: the error names the largest wager this call accepts.
        let potential_profit = self.limits.check_wager(&play.call, play.wager, 0)?;
        let proven =
            play.signature.is_some() || play.siwx.is_some() || play.play_signature.is_some();
        // A successor is a new round of the owner's: only a play the owner proves asks for one
        // (else a leaked round id would hand a stranger round after round of the owner's chips).
        if play.next_round && !proven {
            return Err(AuthError::from(SignatureError::Required).into());
        }
        if proven {
            let opened = self.round_to_play(&play).await?;
            let window = self.proof_window(&opened, &play).await?;
            self.check_owner(&opened, &play, window).await?;
            if let Some(signature) = play.play_signature.as_deref() {
                let stored = self
                    .proofs
                    .check_play_signature(&opened, &play, signature)?;
                play.play_signature = Some(stored);
            }
        }
        // A restored copy may hold chips the chain already paid out: until the books matched
        // the chain once, a play could stake them.
        if let Err(behind) = self.books.plays_open() {
            return Err(PlayError::BooksBehind(behind));
        }
        let queued = Queued {
            play: play.clone(),
            potential_profit,
        };
        match self.writer.settle(queued).await? {
            Outcome::Settled(settled) => {
                let Settled {
                    receipt,
                    round,
                    receipt_signature,
                    balance,
                    free_chips,
                    next_round,
                } = *settled;
                let signatures = BetSignatures {
                    receipt: receipt_signature.as_deref(),
                    play: play.play_signature.as_deref(),
                };
                let receipt = self.proofs.with_proofs(receipt, &round, signatures).await?;
                let seed_batches = &self.proofs.seed_batches;
                let next_round = match next_round {
                    Some(opened) => {
                        seed_batches.keep_room(&opened.taken).await?;
                        Some(committed(seed_batches, self.clock, &opened.round).await?)
                    }
                    // Asked for, and no seed was left: the next batch is published.
                    None if play.next_round => {
                        seed_batches.ensure_seed_room().await?;
                        None
                    }
                    None => None,
                };
                Ok(Played {
                    receipt,
                    balance,
                    free_chips,
                    replayed: false,
                    next_round,
                })
            }
            Outcome::Refused(error) => Err(error),
            Outcome::NotOpen => {
                let round = self.round_to_play(&play).await?;
                self.not_open(&round, &play, now_ms()).await
            }
        }
    }

    async fn round_to_play(&self, play: &Play) -> Result<round::Model, PlayError> {
        store::rounds::find(&self.db, &play.round_id)
            .await?
            .ok_or_else(|| PlayError::RoundNotFound(play.round_id.clone()))
    }

    /// A round that cannot be played now: a repeat of the call that settled it gets that
    /// call's receipt again; anything else is refused.
    async fn not_open(
        &self,
        round: &round::Model,
        play: &Play,
        now: i64,
    ) -> Result<Played, PlayError> {
        if round.state == RoundState::Open {
            if self.clock.is_expired(round, now) {
                return Err(PlayError::RoundExpired(round.id.clone()));
            }
            // Open again: the play that spent it rolled back. The caller may simply retry.
            return Err(PlayError::RoundSpent {
                round_id: round.id.clone(),
                bet_id: None,
            });
        }
        let Some(bet) = store::rounds::bet_of_round(&self.db, &round.id).await? else {
            return Err(PlayError::RoundSpent {
                round_id: round.id.clone(),
                bet_id: None,
            });
        };
        if !is_same_call(&bet, play)? {
            return Err(PlayError::RoundSpent {
                round_id: round.id.clone(),
                bet_id: Some(bet.id),
            });
        }
        let reference = store::ledger::round_reference(&round.id);
        let (balance, free_chips) = store::ledger::after(&self.db, &round.address, &reference)
            .await?
            .unwrap_or_default();
        // Only to its owner, proven now (the call and its Play signature are public, and a
        // repeat lifts a sign-in-with-x header's window).
        let next_round = match self.proven_now(round, play).await {
            true => match store::rounds::successor_of(&self.db, &round.id).await? {
                Some(next) => Some(committed(&self.proofs.seed_batches, self.clock, &next).await?),
                None => None,
            },
            false => None,
        };
        Ok(Played {
            receipt: self.receipts.receipt(&bet, round).await?,
            balance,
            free_chips,
            replayed: true,
            next_round,
        })
    }

    /// Whether `play` proves the round's owner at this moment: a statement signature (checked
    /// before the play was queued), or a sign-in-with-x header within its window now.
    async fn proven_now(&self, round: &round::Model, play: &Play) -> bool {
        if play.signature.is_some() {
            return true;
        }
        let (Some(siwx), Some(owner)) = (play.siwx.as_deref(), address::parse(&round.address))
        else {
            return false;
        };
        let proof = AddressProof {
            signature: None,
            siwx: Some(siwx),
        };
        self.auth
            .verify_proof_in(&owner, proof, Window::At(now_ms()))
            .await
            .is_ok()
    }

    /// When a sign-in-with-x proof's window is checked: now, unless the round is settled and
    /// this is the call that settled it. A repeat only asks for the stored answer again (a
    /// client whose answer was lost), as a statement signature may at any time; the proof
    /// must still be the owner's, of the current generation.
    async fn proof_window(&self, round: &round::Model, play: &Play) -> Result<Window, PlayError> {
        let now = Window::At(now_ms());
        if play.siwx.is_none() || round.state == RoundState::Open {
            return Ok(now);
        }
        let repeat = match store::rounds::bet_of_round(&self.db, &round.id).await? {
            Some(bet) => is_same_call(&bet, play)?,
            None => false,
        };
        Ok(if repeat { Window::Lifted } else { now })
    }

    /// A signature or sign-in-with-x proof, when given, must be the round owner's, of its
    /// current statement generation.
    async fn check_owner(
        &self,
        opened: &round::Model,
        play: &Play,
        window: Window,
    ) -> Result<(), PlayError> {
        let proof = AddressProof {
            signature: play.signature.as_deref(),
            siwx: play.siwx.as_deref(),
        };
        if proof.signature.is_none() && proof.siwx.is_none() {
            return Ok(());
        }
        let owner = address::parse(&opened.address)
            .ok_or_else(|| ServiceError::internal(StoredAddress(opened.address.clone())))?;
        match self.auth.verify_proof_in(&owner, proof, window).await {
            Err(AuthError::Signature(SignatureError::Mismatch { .. })) => {
                Err(PlayError::RoundNotYours(play.round_id.clone()))
            }
            other => Ok(other?),
        }
    }
}

/// Whether `play` is the call that settled `bet`, compared as its game reads the stored call
/// (the signatures aside: a repeat gets the stored ones).
fn is_same_call(bet: &bet::Model, play: &Play) -> Result<bool, ServiceError> {
    let (stored, _) = stored_call(bet)?;
    Ok(stored == play.call
        && bet.client_seed == play.client_seed
        && u64::try_from(bet.wager).ok() == Some(play.wager))
}

/// A stored address that does not parse: the database was changed by hand.
#[derive(Debug, thiserror::Error)]
#[error("the stored address {0:?} is not an address")]
struct StoredAddress(String);
