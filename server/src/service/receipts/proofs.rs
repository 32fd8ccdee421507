//! The proofs around a round (`docs/proofs.md`): where its seed sits in a published batch,
//! and the house's signatures of its commitment and receipt, each next to its full typed data.
//! The signatures are made once (at commit and at settlement) and stored; the typed data is
//! rebuilt from the stored fields when shown. A receipt's type is its bet's era by the signed
//! marks (`signed_marks.rs`): one test, `receipt_message`, picks it for signing and for showing.

use std::collections::BTreeSet;
use std::sync::Arc;

use alloy::primitives::{Address, B256};

use super::receipt::BetReceipt;
use super::wire::{BatchPlace, ReceiptProofs, Signed};
use crate::address;
use crate::proofs::hashes;
use crate::proofs::play::{self, PlayFields, PlayMessage};
use crate::proofs::typed::{self, CommitmentMessage, ReceiptMessage, TypedData};
use crate::rate_limits::Caller;
use crate::service::error::ServiceError;
use crate::service::plays::command::Play;
use crate::service::plays::error::PlayError;
use crate::service::seeds::batches::SeedBatches;
use crate::service::seeds::error::SeedBatchError;
use crate::service::seeds::reads::BatchRead;
use crate::service::signed_marks::SignedMarks;
use crate::store::entities::{bet, round};

/// The signatures stored with a bet.
#[derive(Debug, Clone, Copy, Default)]
pub(in crate::service) struct BetSignatures<'a> {
    /// The house's, of the receipt.
    pub receipt: Option<&'a str>,
    /// The player's, of the play.
    pub play: Option<&'a str>,
}

/// A receipt's proofs: the house's signatures, the player's, and the seed's place in its batch.
#[derive(Clone)]
pub struct Proofs {
    pub(in crate::service) seed_batches: SeedBatches,
    marks: Arc<SignedMarks>,
}

impl Proofs {
    pub fn new(seed_batches: SeedBatches, marks: Arc<SignedMarks>) -> Self {
        Self {
            seed_batches,
            marks,
        }
    }

    /// Fills in a round's server seed (`SeedBatches::fill_server_seed`), its batch read
    /// through `conn` when not known yet.
    pub(in crate::service) async fn fill_server_seed(
        &self,
        conn: &impl sea_orm::ConnectionTrait,
        round: &mut round::Model,
    ) -> Result<(), SeedBatchError> {
        self.seed_batches.fill_server_seed(conn, round).await
    }

    /// The house's signer: who signs Commitments and Receipts.
    pub(in crate::service) fn house_signer(&self) -> Address {
        self.seed_batches.seeds.signer.address()
    }

    /// The signed root of batch `batch_id`.
    pub(in crate::service) async fn batch_root(
        &self,
        batch_id: i64,
    ) -> Result<[u8; 32], SeedBatchError> {
        Ok(self.seed_batches.shape(batch_id).await?.root)
    }

    /// The signed marks: from which bet on receipts carry proofs, and sign `house_agent`.
    pub fn marks(&self) -> &SignedMarks {
        &self.marks
    }

    pub(in crate::service) fn commitment_typed(&self, round: &round::Model) -> Option<TypedData> {
        Some(typed::commitment(
            &self.seed_batches.seeds.signer.domain(),
            &CommitmentMessage {
                round_id: &round.id,
                player: &address::display_key(&round.address),
                commitment: &round.commitment,
                batch_id: round.batch_id?,
                index: round.seed_index?,
                fairness_version: arcade_core::FAIRNESS_VERSION,
                created_at: round.created_at / 1000,
            },
        ))
    }

    /// The typed `Receipt` of a settled round whose seed came from a batch.
    pub(in crate::service) fn receipt_typed(
        &self,
        receipt: &BetReceipt,
        round: &round::Model,
    ) -> Option<TypedData> {
        let message = receipt_message(receipt, round, &self.marks)?;
        Some(typed::receipt(
            &self.seed_batches.seeds.signer.domain(),
            &message,
        ))
    }

    /// The `Play` a receipt's player signed, rebuilt from the receipt's fields.
    fn play_typed(&self, receipt: &BetReceipt) -> Option<TypedData> {
        let message = PlayMessage::of(receipt.into(), &receipt.params);
        Some(play::typed_data(
            &self.seed_batches.seeds.signer.domain(),
            &message,
        ))
    }

    /// Checks a play's `play_signature` against the round it plays: the owner's signature of
    /// the round's commitment and exactly this call. Gives it in the form it is stored in.
    pub(in crate::service) fn check_play_signature(
        &self,
        round: &round::Model,
        play: &Play,
        signature: &str,
    ) -> Result<String, PlayError> {
        let played = PlayFields {
            round_id: &round.id,
            player: &address::display_key(&round.address),
            commitment: &round.commitment,
            client_seed: &play.client_seed,
            wager: i64::try_from(play.wager).unwrap_or(i64::MAX),
        };
        let message = PlayMessage::of(played, &play.call);
        let owner = address::parse(&round.address)
            .ok_or_else(|| ServiceError::internal(UnsignableCall(round.address.clone())))?;
        let domain = self.seed_batches.seeds.signer.eip712_domain();
        Ok(play::verify(domain, &message, &owner, signature)?)
    }

    /// The hash a freshly settled receipt is signed over (`None` for a round from before
    /// batches), from static types: the hot path of every play.
    fn receipt_hash(
        &self,
        receipt: &BetReceipt,
        round: &round::Model,
    ) -> Result<Option<B256>, ServiceError> {
        let Some(message) = receipt_message(receipt, round, &self.marks) else {
            return Ok(None);
        };
        let domain = self.seed_batches.seeds.signer.eip712_domain();
        hashes::receipt(domain, &message)
            .map(Some)
            .map_err(ServiceError::internal)
    }

    /// Signs a batch's receipts, in order (`None` for rounds from before batches), on two
    /// threads when there are several (`Seeds::sign_hashes`).
    pub(in crate::service) fn sign_receipts(
        &self,
        receipts: &[(&BetReceipt, &round::Model)],
    ) -> Result<Vec<Option<String>>, ServiceError> {
        let hashes = receipts
            .iter()
            .map(|(receipt, round)| self.receipt_hash(receipt, round))
            .collect::<Result<Vec<_>, _>>()?;
        let to_sign: Vec<B256> = hashes.iter().flatten().copied().collect();
        let signatures = self.seed_batches.seeds.sign_hashes(&to_sign)?;
        let mut signatures = signatures.into_iter();
        Ok(hashes
            .iter()
            .map(|hash| hash.and_then(|_| signatures.next()))
            .collect())
    }

    /// Starts a reader's read of a round's proofs, priced as a read of its seed's row
    /// (`SeedBatches::begin_row`): held until the answer is built.
    pub(in crate::service) async fn begin_read(
        &self,
        caller: Caller,
        round: &round::Model,
    ) -> Result<Option<BatchRead<'_>>, SeedBatchError> {
        match round.batch_id {
            Some(batch_id) => Ok(Some(self.seed_batches.begin_row(caller, batch_id).await?)),
            None => Ok(None),
        }
    }

    /// What a page of these rounds' receipts adds to the heavy read its caller holds
    /// (`SeedBatches::price_builds`).
    pub(in crate::service) async fn price_builds(
        &self,
        caller: Caller,
        page_rows: u64,
        rounds: &[(bet::Model, round::Model)],
    ) -> Result<(), SeedBatchError> {
        let batch_ids: BTreeSet<i64> = rounds
            .iter()
            .filter_map(|(_, round)| round.batch_id)
            .collect();
        self.seed_batches
            .price_builds(caller, page_rows, batch_ids)
            .await
    }

    /// Where the round's seed sits in its batch.
    pub(in crate::service) async fn batch_place(
        &self,
        round: &round::Model,
    ) -> Result<Option<BatchPlace>, SeedBatchError> {
        let (Some(batch_id), Some(index)) = (round.batch_id, round.seed_index) else {
            return Ok(None);
        };
        Ok(Some(self.seed_batches.seed_place(batch_id, index).await?))
    }

    /// Attaches a receipt's proofs, from the stored signatures (its `house_agent` already the
    /// bet's, as signed).
    pub(in crate::service) async fn with_proofs(
        &self,
        mut receipt: BetReceipt,
        round: &round::Model,
        signatures: BetSignatures<'_>,
    ) -> Result<BetReceipt, SeedBatchError> {
        let signed = |signature: Option<&str>, typed: Option<TypedData>| {
            Some(Signed {
                signature: signature?.to_owned(),
                typed_data: typed?,
            })
        };
        receipt.proofs = Some(ReceiptProofs {
            batch: self.batch_place(round).await?,
            commitment: signed(
                round.commitment_signature.as_deref(),
                self.commitment_typed(round),
            ),
            receipt: signed(signatures.receipt, self.receipt_typed(&receipt, round)),
            play: signed(signatures.play, self.play_typed(&receipt)),
        });
        Ok(receipt)
    }
}

/// What a settled round's receipt signs, read from the receipt and its round (`None` for a
/// round from before batches): from the marks' `house_agent_signed_from` on, `house_agent` too.
fn receipt_message<'a>(
    receipt: &'a BetReceipt,
    round: &round::Model,
    marks: &SignedMarks,
) -> Option<ReceiptMessage<'a>> {
    let server_seed = receipt.server_seed.as_deref()?;
    let signed = receipt.params.signed();
    let outcome = i64::try_from(receipt.result.result.signed_outcome()).ok()?;
    let message = ReceiptMessage {
        round_id: &receipt.round_id,
        bet_id: receipt.bet_id,
        player: &receipt.address,
        game: receipt.game.as_str(),
        commitment: &receipt.commitment,
        server_seed,
        client_seed: &receipt.client_seed,
        nonce: receipt.nonce,
        call: signed.call,
        target: i64::try_from(signed.target).ok()?,
        number: signed.number.map(i64::from),
        wager: receipt.wager,
        outcome,
        won: receipt.won,
        payout: receipt.payout,
        balance_change: receipt.profit,
        batch_id: round.batch_id?,
        index: round.seed_index?,
        fairness_version: receipt.fairness_version,
        settled_at: chrono::DateTime::parse_from_rfc3339(&receipt.settled_at)
            .ok()?
            .timestamp(),
        house_agent: marks
            .signs_house_agent(receipt.bet_id)
            .then_some(receipt.house_agent),
    };
    Some(message)
}

impl<'a> From<&'a BetReceipt> for PlayFields<'a> {
    fn from(receipt: &'a BetReceipt) -> Self {
        Self {
            round_id: &receipt.round_id,
            player: &receipt.address,
            commitment: &receipt.commitment,
            client_seed: &receipt.client_seed,
            wager: receipt.wager,
        }
    }
}

/// A call or address the server itself stored that `Play` cannot name (a defect).
#[derive(Debug, thiserror::Error)]
#[error("a play cannot be signed over {0}")]
struct UnsignableCall(String);
