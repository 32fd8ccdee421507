//! Playing a round (flip, dice, roulette share this): check the call and the wager, spend the
//! round, take the wager, settle with `arcade-core`, pay out, record the bet, all in one
//! transaction that either happens whole or not at all.

use arcade_core::wire::CallParams;
use arcade_core::{ARCADE_NONCE, Call, ClientSeed, Round, ServerSeed};
use salvo::oapi::ToSchema;
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveValue::Set, ColumnTrait, DatabaseTransaction, EntityTrait, QueryFilter, TransactionTrait,
};
use serde::Serialize;

use super::ledger::{self, Floor, Kind};
use super::receipts::BetReceipt;
use super::{Arcade, now_ms, utc_day};
use crate::address;
use crate::entities::{bet, round, wallet};
use crate::error::ApiError;
use crate::identity::SignatureError;

/// A game call, validated in shape (the edge did that) but not yet against the rules.
#[derive(Debug, Clone)]
pub struct Play {
    pub round_id: String,
    pub client_seed: String,
    pub wager: u64,
    pub call: Call,
    pub signature: Option<String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct Played {
    #[serde(flatten)]
    pub receipt: BetReceipt,
    /// Chips after settlement.
    pub balance: i64,
}

impl Arcade {
    pub async fn play(&self, play: Play) -> Result<Played, ApiError> {
        // Rules that need no database: the error names the largest wager this call accepts.
        let potential_profit = self.limits.check_wager(&play.call, play.wager, 0)?;
        let opened = round::Entity::find_by_id(play.round_id.as_str())
            .one(&self.db)
            .await?
            .ok_or_else(|| ApiError::RoundNotFound(play.round_id.clone()))?;
        if let Some(signature) = play.signature.as_deref() {
            let owner = address::parse(&opened.address)
                .ok_or_else(|| ApiError::internal(std::io::Error::other("stored address")))?;
            match self.identity.verify(&owner, Some(signature)) {
                Err(SignatureError::Mismatch { .. }) => {
                    return Err(ApiError::RoundNotYours(play.round_id));
                }
                other => other?,
            }
        }
        if opened.state != round::OPEN {
            return Err(ApiError::RoundSpent(play.round_id));
        }
        let wager = i64::try_from(play.wager).map_err(ApiError::internal)?;
        let now = now_ms();
        let txn = self.db.begin().await?;
        spend(&txn, &opened.id, now).await?;
        let reference = format!("round:{}", opened.id);
        let Some(debited) = ledger::debit(
            &txn,
            &opened.address,
            wager,
            Floor::Nothing,
            Kind::Wager,
            &reference,
            now,
        )
        .await?
        else {
            return Err(insufficient(&txn, &opened.address, play.wager).await);
        };
        let today = utc_day(now);
        let net_today = if debited.net_day == today {
            debited.net_today
        } else {
            0
        };
        self.limits.check_daily_cap(net_today, potential_profit)?;

        let settlement = settle(&opened, &play)?;
        let payout = i64::try_from(settlement.payout).map_err(ApiError::internal)?;
        let balance = if payout > 0 {
            ledger::credit(&txn, &opened.address, payout, Kind::Win, &reference, now)
                .await?
                .chips
        } else {
            debited.chips
        };
        wallet::Entity::update_many()
            .col_expr(wallet::Column::NetDay, Expr::value(today))
            .col_expr(
                wallet::Column::NetToday,
                Expr::value(net_today + settlement.profit),
            )
            .filter(wallet::Column::Address.eq(&opened.address))
            .exec(&txn)
            .await?;
        let row = bet::ActiveModel {
            round_id: Set(opened.id.clone()),
            address: Set(opened.address.clone()),
            game: Set(settlement.call.game().as_str().to_owned()),
            client_seed: Set(play.client_seed.clone()),
            nonce: Set(i64::try_from(ARCADE_NONCE).map_err(ApiError::internal)?),
            wager: Set(wager),
            params: Set(to_json(&CallParams(&settlement.call))?),
            result: Set(to_json(&settlement.result)?),
            won: Set(settlement.won),
            payout: Set(payout),
            profit: Set(settlement.profit),
            settled_at: Set(now),
            ..Default::default()
        };
        let stored = bet::Entity::insert(row).exec_with_returning(&txn).await?;
        txn.commit().await?;
        Ok(Played {
            receipt: BetReceipt::new(&stored, &opened)?,
            balance,
        })
    }
}

/// Marks the round spent if it still is open; a concurrent play that got there first wins.
async fn spend(txn: &DatabaseTransaction, round_id: &str, now: i64) -> Result<(), ApiError> {
    let spent = round::Entity::update_many()
        .col_expr(round::Column::State, Expr::value(round::SPENT))
        .col_expr(round::Column::SpentAt, Expr::value(now))
        .filter(round::Column::Id.eq(round_id))
        .filter(round::Column::State.eq(round::OPEN))
        .exec(txn)
        .await?;
    if spent.rows_affected == 1 {
        Ok(())
    } else {
        Err(ApiError::RoundSpent(round_id.to_owned()))
    }
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

async fn insufficient(txn: &DatabaseTransaction, address: &str, wager: u64) -> ApiError {
    match wallet::Entity::find_by_id(address).one(txn).await {
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
