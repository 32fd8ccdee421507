//! Settled rounds as receipts: what game calls return, `verify` re-derives and `recent` lists.

use std::sync::Arc;

use salvo::oapi::ToSchema;
use serde::Serialize;

pub mod proofs;
pub mod receipt;
pub mod settled_mark;
pub mod shown_result;
pub mod stored_bets;
pub mod verdict;
pub mod wire;

use super::HouseWallets;
use super::seeds::error::SeedBatchError;
use crate::rate_limits::Caller;
use crate::service::error::{ServiceError, wraps_service_error};
use crate::store;
use crate::store::Db;
use crate::store::entities::{bet, round};
use proofs::{BetSignatures, Proofs};
pub use receipt::{BetReceipt, VerifiedBet};
use settled_mark::SettledMark;

/// A page of the audit feed.
#[derive(Debug, Serialize, ToSchema)]
pub struct Feed {
    pub receipts: Vec<BetReceipt>,
    /// The `after` of the next page; null when this page is the last.
    pub next_after: Option<i64>,
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
