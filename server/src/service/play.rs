//! Playing a round (flip, dice, roulette share this): check the call and the wager, spend the
//! round, take the wager, settle with `arcade-core`, pay out, record the bet, all in one
//! transaction that either happens whole or not at all. A repeat of the call that settled a
//! round (a client whose connection dropped) gets the original receipt, marked `replayed`.

use arcade_core::wire::CallParams;
use arcade_core::{ARCADE_NONCE, Call, ClientSeed, Round, ServerSeed};
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use super::receipts::BetReceipt;
use super::{Arcade, now_ms, utc_day};
use crate::address;
use crate::error::ApiError;
use crate::identity::SignatureError;
use crate::store::entities::bet;
use crate::store::entities::ledger::LedgerKind;
use crate::store::entities::round::{self, RoundState};
use crate::store::ledger::{Entry, Floor};
use crate::store::rounds::NewBet;
use crate::store::{self, Tx};

/// A game call, validated in shape (the edge did that) but not yet against the rules.
#[derive(Debug, Clone)]
pub struct Play {
    pub round_id: String,
    pub client_seed: String,
    pub wager: u64,
    pub call: Call,
    pub signature: Option<String>,
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Played {
    #[serde(flatten)]
    pub receipt: BetReceipt,
    /// Chips after settlement (now, for a replayed answer).
    pub balance: i64,
    /// `true` when this answers a repeat of the call that already settled the round: the
    /// original receipt, nothing played again.
    pub replayed: bool,
}

impl Arcade {
    pub async fn play(&self, play: Play) -> Result<Played, ApiError> {
        // Rules that need no database: the error names the largest wager this call accepts.
        let potential_profit = self.limits.check_wager(&play.call, play.wager, 0)?;
        let opened = store::rounds::find(&self.db, &play.round_id)
            .await?
            .ok_or_else(|| ApiError::RoundNotFound(play.round_id.clone()))?;
        self.check_owner(&opened, &play).await?;
        let now = now_ms();
        if opened.state != RoundState::Open || self.is_expired(&opened, now) {
            return self.not_open(&opened, &play, now).await;
        }
        let txn = store::begin(&self.db).await?;
        if !store::rounds::spend(&txn, &opened, now, self.opened_after(now)).await? {
            drop(txn);
            let again = store::rounds::find(&self.db, &opened.id).await?;
            return self.not_open(&again.unwrap_or(opened), &play, now).await;
        }
        let (stored, balance) = self
            .wager_and_settle(&txn, &opened, &play, potential_profit, now)
            .await?;
        txn.commit().await?;
        self.floor.changed();
        Ok(Played {
            receipt: self.receipt(&stored, &opened).await?,
            balance,
            replayed: false,
        })
    }

    /// In the play's transaction: takes the wager, settles the round with `arcade-core`, pays
    /// out, counts the day's net and records the bet; the bet and the balance after.
    async fn wager_and_settle(
        &self,
        txn: &Tx,
        opened: &round::Model,
        play: &Play,
        potential_profit: u64,
        now: i64,
    ) -> Result<(bet::Model, i64), ApiError> {
        let wager = i64::try_from(play.wager).map_err(ApiError::internal)?;
        let reference = format!("round:{}", opened.id);
        let entry = |kind| Entry {
            kind,
            reference: &reference,
            at: now,
        };
        let debit = store::ledger::debit(
            txn,
            &opened.address,
            wager,
            Floor::Nothing,
            entry(LedgerKind::Wager),
        );
        let Some(debited) = debit.await? else {
            return Err(insufficient(txn, &opened.address, play.wager).await);
        };
        let today = utc_day(now);
        let net_today = if debited.net_day == today {
            debited.net_today
        } else {
            0
        };
        self.limits.check_daily_cap(net_today, potential_profit)?;

        let settlement = settle(opened, play)?;
        let payout = i64::try_from(settlement.payout).map_err(ApiError::internal)?;
        let balance = if payout > 0 {
            store::ledger::credit(txn, &opened.address, payout, entry(LedgerKind::Win))
                .await?
                .chips
        } else {
            debited.chips
        };
        let net = net_today + settlement.profit;
        store::ledger::set_net(txn, &opened.address, today, net).await?;
        let mut stored =
            store::rounds::record_bet(txn, new_bet(opened, play, &settlement, now)?).await?;
        if let Some(signature) = self.sign_receipt(&BetReceipt::new(&stored, opened)?, opened)? {
            store::rounds::sign_bet(txn, &mut stored, signature).await?;
        }
        Ok((stored, balance))
    }

    /// A round that cannot be played now: a repeat of the call that settled it gets that
    /// call's receipt again; anything else is refused.
    async fn not_open(
        &self,
        round: &round::Model,
        play: &Play,
        now: i64,
    ) -> Result<Played, ApiError> {
        if round.state == RoundState::Open {
            if self.is_expired(round, now) {
                return Err(ApiError::RoundExpired(round.id.clone()));
            }
            // Open again: the play that spent it rolled back. The caller may simply retry.
            return Err(ApiError::RoundSpent {
                round_id: round.id.clone(),
                bet_id: None,
            });
        }
        let Some(bet) = store::rounds::bet_of_round(&self.db, &round.id).await? else {
            return Err(ApiError::RoundSpent {
                round_id: round.id.clone(),
                bet_id: None,
            });
        };
        if !is_same_call(&bet, play)? {
            return Err(ApiError::RoundSpent {
                round_id: round.id.clone(),
                bet_id: Some(bet.id),
            });
        }
        let wallet = store::ledger::wallet(&self.db, &round.address).await?;
        Ok(Played {
            receipt: self.receipt(&bet, round).await?,
            balance: wallet.map_or(0, |w| w.chips),
            replayed: true,
        })
    }

    /// A signature, when given, must be the round owner's, of its current statement.
    async fn check_owner(&self, opened: &round::Model, play: &Play) -> Result<(), ApiError> {
        let Some(signature) = play.signature.as_deref() else {
            return Ok(());
        };
        let owner = address::parse(&opened.address)
            .ok_or_else(|| ApiError::internal(StoredAddress(opened.address.clone())))?;
        match self.verify_signature(&owner, Some(signature)).await {
            Err(ApiError::Signature(SignatureError::Mismatch { .. })) => {
                Err(ApiError::RoundNotYours(play.round_id.clone()))
            }
            other => other,
        }
    }
}

/// Whether `play` is the call that settled `bet`, compared as parsed (the signature aside).
fn is_same_call(bet: &bet::Model, play: &Play) -> Result<bool, ApiError> {
    let stored: serde_json::Value =
        serde_json::from_str(&bet.params).map_err(ApiError::internal)?;
    let asked = serde_json::to_value(CallParams(&play.call)).map_err(ApiError::internal)?;
    Ok(bet.game == play.call.game().as_str()
        && bet.client_seed == play.client_seed
        && u64::try_from(bet.wager).ok() == Some(play.wager)
        && stored == asked)
}

/// A stored address that does not parse: the database was changed by hand.
#[derive(Debug, thiserror::Error)]
#[error("the stored address {0:?} is not an address")]
struct StoredAddress(String);

fn new_bet(
    opened: &round::Model,
    play: &Play,
    settlement: &arcade_core::Settlement,
    now: i64,
) -> Result<NewBet, ApiError> {
    Ok(NewBet {
        round_id: opened.id.clone(),
        address: opened.address.clone(),
        game: settlement.call.game().as_str(),
        client_seed: play.client_seed.clone(),
        nonce: i64::try_from(ARCADE_NONCE).map_err(ApiError::internal)?,
        wager: i64::try_from(play.wager).map_err(ApiError::internal)?,
        params: to_json(&CallParams(&settlement.call))?,
        result: to_json(&settlement.result)?,
        won: settlement.won,
        payout: i64::try_from(settlement.payout).map_err(ApiError::internal)?,
        profit: settlement.profit,
        settled_at: now,
    })
}

fn settle(opened: &round::Model, play: &Play) -> Result<arcade_core::Settlement, ApiError> {
    let server_seed = ServerSeed::parse(&opened.server_seed).map_err(ApiError::internal)?;
    let client_seed = ClientSeed::parse(&play.client_seed).map_err(ApiError::internal)?;
    let round = Round::new(
        server_seed,
        client_seed,
        ARCADE_NONCE,
        play.call,
        play.wager,
    )
    .map_err(ApiError::internal)?;
    Ok(round.settle())
}

async fn insufficient(txn: &Tx, address: &str, wager: u64) -> ApiError {
    match store::ledger::wallet(txn, address).await {
        Ok(found) => ApiError::InsufficientChips {
            balance: found.map_or(0, |w| w.chips),
            wager,
        },
        Err(error) => error.into(),
    }
}

fn to_json(value: &impl Serialize) -> Result<String, ApiError> {
    serde_json::to_string(value).map_err(ApiError::internal)
}
