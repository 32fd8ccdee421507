//! Opening a round on a seed index taken for it: the round's row with the commitment to the
//! index's seed and the house's signed Commitment. A batch of commits opens its rounds this way
//! (`batch.rs`), and so does a batch of plays for the successors its plays asked for
//! (`plays/batch.rs`), each inside its own transaction; neither stores the seed.

use arcade_core::{Commitment, FAIRNESS_VERSION};

use crate::address;
use crate::proofs::typed::CommitmentMessage;
use crate::proofs::{BatchKey, hashes};
use crate::service::error::ServiceError;
use crate::service::seeds::house::Seeds;
use crate::store::entities::round::{self, RoundState};
use crate::store::seed_batches::Taken;

/// A round to open: its id, its owner, its time, and the round whose play opens it (if any).
#[derive(Debug, Clone)]
pub struct NewRound {
    pub round_id: String,
    /// The address as stored (`address::key`).
    pub address: String,
    /// When it opens: its `created_at`.
    pub now: i64,
    pub predecessor: Option<String>,
}

/// A round opened in a transaction not yet committed: its row and its seed's index.
#[derive(Debug)]
pub struct OpenedRound {
    pub round: round::Model,
    pub taken: Taken,
}

/// The rounds of `opening`, each on its index of `taken` (in order): its row, with the
/// commitment to its seed and the house's signature of the Commitment (on two threads when
/// there are several).
pub fn seal(
    seeds: &Seeds,
    opening: &[&NewRound],
    taken: Vec<Taken>,
) -> Result<Vec<OpenedRound>, ServiceError> {
    let domain = seeds.signer.eip712_domain();
    let mut rounds = Vec::with_capacity(taken.len());
    let mut hashes = Vec::with_capacity(taken.len());
    for (new, taken) in opening.iter().zip(&taken) {
        let batch = BatchKey {
            id: taken.batch_id,
            salt: taken.salt.as_deref(),
        };
        let commitment = Commitment::of(&seeds.book.seed(batch, taken.index));
        let round = round::Model {
            id: new.round_id.clone(),
            address: new.address.clone(),
            // No seed is stored: it derives from the batch and index (a backup reveals none).
            server_seed: String::new(),
            commitment: commitment.as_str().to_owned(),
            state: RoundState::Open,
            created_at: new.now,
            spent_at: None,
            expired_at: None,
            batch_id: Some(taken.batch_id),
            seed_index: Some(taken.index),
            commitment_signature: None,
            predecessor_id: new.predecessor.clone(),
        };
        let player = address::display_key(&round.address);
        let message = commitment_message(&round, &player)
            .ok_or_else(|| ServiceError::internal(Unbatched(round.id.clone())))?;
        hashes.push(hashes::commitment(domain, &message).map_err(ServiceError::internal)?);
        rounds.push(round);
    }
    let signatures = seeds.sign_hashes(&hashes)?;
    Ok(rounds
        .into_iter()
        .zip(signatures)
        .zip(taken)
        .map(|((mut round, signature), taken)| {
            round.commitment_signature = Some(signature);
            OpenedRound { round, taken }
        })
        .collect())
}

/// What the house signs of a round it opened, `player` its owner as shown; `None` for a round
/// from before seed batches (it has no Commitment).
pub fn commitment_message<'a>(
    round: &'a round::Model,
    player: &'a str,
) -> Option<CommitmentMessage<'a>> {
    Some(CommitmentMessage {
        round_id: &round.id,
        player,
        commitment: &round.commitment,
        batch_id: round.batch_id?,
        index: round.seed_index?,
        fairness_version: FAIRNESS_VERSION,
        created_at: round.created_at / 1000,
    })
}

/// A round being opened without its seed's batch (a defect of `seal`).
#[derive(Debug, thiserror::Error)]
#[error("round {0} was opened without a seed batch")]
struct Unbatched(String);
