//! The house key's transactions since the cursor, nonce by nonce: each nonce the chain mined is
//! accounted for before the books move past it, so an RPC whose logs come back short (a node
//! behind, a provider's partial answer) cannot make a pass skip a payout. The token's logs find
//! most of them in two reads per 2,000 blocks; a nonce they did not show is looked up by itself
//! (`Chain::house_transaction_with_nonce`), unless the logs account for every change of the
//! house's and the pay-to address's balances since the cursor's block (stored with it): then a
//! nonce they did not show moved no token, and needs no lookup (which needs the node's state at
//! old blocks, which a full node keeps for about 128 blocks).
//!
//! A stranger's transfer into the pay-to address is read (one `eth_getTransactionByHash`) only
//! while some nonce is still unaccounted for, which outside a restore's catch-up is never, and
//! at most `FETCHES_PER_NONCE` per nonce unaccounted for: past that, each is looked up by itself,
//! at a cost no stranger sets. Transfers of nothing are no payment and are not read at all.

/// Transactions read by hash from the logs, per nonce the journal did not account for.
const FETCHES_PER_NONCE: usize = 4;

use std::collections::HashMap;

use alloy::primitives::{B256, U256};

use crate::chain::Chain;
use crate::chain::history::{Located, TokenMove};
use crate::store::books::{Balances, Cursor};
use crate::store::{self, Db};

/// What the chain's transaction with one nonce is to the books.
#[derive(Debug)]
pub(super) enum Slot {
    /// In the journal.
    Known,
    /// Not in the journal: the database forgot it.
    Forgotten(Located),
    /// Not in the logs, which account for every change of the balances: it moved no token.
    Quiet,
    /// Not found in this pass (the RPC does not show it yet): the books stop before it.
    Unseen,
}

/// The balances at `block`, as the books store them.
pub(super) async fn balances_at(
    chain: &Chain,
    block: u64,
) -> Result<Balances, super::ServiceError> {
    let house = chain.token_balance_at(chain.house_address(), block).await?;
    let pay_to = if chain.pay_to() == chain.house_address() {
        house
    } else {
        chain.token_balance_at(chain.pay_to(), block).await?
    };
    Ok(Balances {
        house: house.to_string(),
        pay_to: pay_to.to_string(),
    })
}

/// Whether `moves` (since the cursor's block) account for every change of the house's and the
/// pay-to address's balances by `deep`; `false` when no balances were stored at the cursor.
async fn balanced(
    chain: &Chain,
    db: &Db,
    moves: &[TokenMove],
    deep: u64,
) -> Result<bool, super::ServiceError> {
    let sender = crate::address::key(&chain.house_address());
    let Some(stored) = store::books::balances(db, &sender).await? else {
        return Ok(false);
    };
    let now = balances_at(chain, deep).await?;
    let after = |owner, before: &str| -> Option<U256> {
        let mut held: U256 = before.parse().ok()?;
        for found in moves {
            if found.to == owner {
                held = held.checked_add(found.value)?;
            }
            if found.from == owner {
                held = held.checked_sub(found.value)?;
            }
        }
        Some(held)
    };
    let house = after(chain.house_address(), &stored.house);
    let pay_to = after(chain.pay_to(), &stored.pay_to);
    Ok(house.map(|h| h.to_string()) == Some(now.house)
        && pay_to.map(|p| p.to_string()) == Some(now.pay_to))
}

/// The house's transactions since the cursor, as one pass found them.
pub(super) struct Since {
    /// The slot of each nonce `cursor.next_nonce..mined`.
    pub slots: Vec<Slot>,
    /// The logs show a transfer out of the house the journal does not know: the database forgot
    /// a payout (a restore), whether or not the pass could read it yet.
    pub forgot_a_payout: bool,
}

/// The slots of nonces `cursor.next_nonce..mined`, mined by `deep`.
pub(super) async fn house_transactions(
    chain: &Chain,
    db: &Db,
    cursor: Cursor,
    (mined, deep): (u64, u64),
) -> Result<Since, super::ServiceError> {
    let first = cursor.next_nonce;
    let mut slots: Vec<Slot> = (first..mined).map(|_| Slot::Unseen).collect();
    let index = |nonce: u64| {
        (first..mined)
            .contains(&nonce)
            .then(|| usize::try_from(nonce - first).ok())
            .flatten()
    };
    let blocks = (cursor.block + 1, deep);
    let (moves, mut examined_all) = chain.house_token_moves(blocks.0, blocks.1).await?;
    let mut order: Vec<B256> = Vec::new();
    let mut of_tx: HashMap<B256, Vec<TokenMove>> = HashMap::new();
    for found in moves.iter().cloned() {
        if !of_tx.contains_key(&found.tx) {
            order.push(found.tx);
        }
        of_tx.entry(found.tx).or_default().push(found);
    }
    let hashes: Vec<String> = order.iter().map(ToString::to_string).collect();
    let sender = crate::address::key(&chain.house_address());
    let known = store::books::journalled(db, &sender, &hashes).await?;
    // The block each accounted nonce was mined in, where the logs tell: a nonce looked up by
    // itself lies at or after the block of the one below it.
    let mut mined_in: Vec<Option<u64>> = vec![None; slots.len()];
    let block_of = |tx: &B256| {
        of_tx
            .get(tx)
            .and_then(|moves| moves.first())
            .map(|m| m.block)
    };
    for (tx, hash) in order.iter().zip(&hashes) {
        if let Some(i) = known.get(hash).and_then(|nonce| index(*nonce)) {
            slots[i] = Slot::Known;
            mined_in[i] = block_of(tx);
        }
    }
    let forgot_a_payout = moves
        .iter()
        .any(|m| m.from == chain.house_address() && !known.contains_key(&m.tx.to_string()));
    let mut unaccounted = slots.iter().filter(|s| matches!(s, Slot::Unseen)).count();
    let mut fetches = unaccounted.saturating_mul(FETCHES_PER_NONCE);
    for tx in order {
        if unaccounted == 0 {
            break;
        }
        if known.contains_key(&tx.to_string()) {
            continue;
        }
        if fetches == 0 {
            examined_all = false;
            break;
        }
        fetches -= 1;
        let Some(sent) = chain.sent_by(tx).await? else {
            examined_all = false;
            break;
        };
        if sent.from != chain.house_address() {
            continue;
        }
        if let Some(i) = index(sent.nonce)
            && matches!(slots[i], Slot::Unseen)
        {
            let moves = of_tx.remove(&tx).unwrap_or_default();
            let block = moves.first().map_or(blocks.0, |m| m.block);
            mined_in[i] = Some(block);
            slots[i] = Slot::Forgotten(Located {
                tx,
                block,
                sent,
                moves,
            });
            unaccounted -= 1;
        }
    }
    let unaccounted = slots.iter().any(|s| matches!(s, Slot::Unseen));
    if unaccounted && examined_all && balanced(chain, db, &moves, deep).await? {
        // Every transaction in the logs was read, and the logs account for the balances: the
        // nonces left moved no token.
        for slot in &mut slots {
            if matches!(slot, Slot::Unseen) {
                *slot = Slot::Quiet;
            }
        }
    }
    let mut low = blocks.0;
    for (i, nonce) in (first..mined).enumerate() {
        if !matches!(slots[i], Slot::Unseen) {
            low = low.max(mined_in[i].unwrap_or(low));
            continue;
        }
        match by_itself(chain, db, nonce, (low, blocks.1)).await? {
            Some((slot, block)) => {
                slots[i] = slot;
                low = block;
            }
            None => break,
        }
    }
    Ok(Since {
        slots,
        forgot_a_payout,
    })
}

/// The slot of `nonce` and the block it was mined in, looked up without logs; `None` if the
/// RPC does not show it.
async fn by_itself(
    chain: &Chain,
    db: &Db,
    nonce: u64,
    blocks: (u64, u64),
) -> Result<Option<(Slot, u64)>, super::ServiceError> {
    let mut located = chain.house_transaction_with_nonce(nonce, blocks).await?;
    if located.is_none() && blocks.0 > 0 {
        // A count read while a block was being stored can be short, which leaves the cursor's
        // block past the nonce's: the whole chain is searched once more.
        located = chain
            .house_transaction_with_nonce(nonce, (0, blocks.1))
            .await?;
    }
    let Some(located) = located else {
        return Ok(None);
    };
    let block = located.block;
    let sender = crate::address::key(&chain.house_address());
    let known = store::books::journalled(db, &sender, &[located.tx.to_string()]).await?;
    let slot = if known.is_empty() {
        Slot::Forgotten(located)
    } else {
        Slot::Known
    };
    Ok(Some((slot, block)))
}
