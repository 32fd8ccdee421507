//! The audit every payment test ends with: the ledger chains and balances equal it (the
//! `TestApp` audit), and chips in = money received. Read straight from anvil and decoded here,
//! independently of the server's own proof code:
//!
//! - every purchase credit in the ledger belongs to one `settled` payment, for its chips;
//! - every `settled` payment's transaction is a successful receipt holding its authorization's
//!   `AuthorizationUsed(payer, nonce)` followed by `Transfer(payer → pay_to, amount)`;
//! - every `settled` payment's tier and chips are the tier whose price is that amount;
//! - the pay-to address received from the payers, in the token's `Transfer` logs, exactly the
//!   sum of the settled payments' amounts (plus what a test sent it on purpose for nothing).

use std::collections::{HashMap, HashSet};

use alloy::primitives::{Address, B256, U256};
use alloy::providers::{Provider, ProviderBuilder};
use alloy::rpc::types::Filter;
use alloy::sol_types::SolEvent;
use arcade_server::chain::token::DollarToken::{AuthorizationUsed, Transfer};
use arcade_server::entities::payment::PaymentState;
use arcade_server::entities::{ledger, payment};
use arcade_server::tiers::{BASE_UNITS_PER_CHIP, TIERS};
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use crate::paying::PaidApp;

/// Ledger rows `TestApp::fund` writes: chips given without a payment.
const FIXTURE: &str = "test fixture";

impl PaidApp {
    pub async fn audit(&self) {
        self.audit_with_unowed(U256::ZERO).await;
    }

    /// The audit, where the test itself sent `unowed` base units from a payer to the pay-to
    /// address through a transfer that buys nothing (no tier's price).
    pub async fn audit_with_unowed(&self, unowed: U256) {
        self.app.audit().await;
        let db = &self.arcade.db;
        let payments = payment::Entity::find().all(db).await.unwrap();
        let settled: Vec<&payment::Model> = payments
            .iter()
            .filter(|p| p.state == PaymentState::Settled)
            .collect();

        let credits = ledger::Entity::find()
            .filter(ledger::Column::Kind.eq("purchase"))
            .filter(ledger::Column::Reference.ne(FIXTURE))
            .all(db)
            .await
            .unwrap();
        let mut credited: HashMap<String, i64> = HashMap::new();
        for credit in &credits {
            *credited.entry(credit.reference.clone()).or_default() += credit.delta;
        }
        let expected: HashMap<String, i64> = settled
            .iter()
            .map(|p| (format!("payment:{}", p.id), p.chips))
            .collect();
        assert_eq!(
            credited, expected,
            "purchase credits are exactly the settled payments' chips, once each"
        );

        let provider = ProviderBuilder::new().connect_http(self.devnet.rpc_url().parse().unwrap());
        let mut paid_in = U256::ZERO;
        for row in &settled {
            let hash: B256 = row.tx_hash.as_deref().unwrap().parse().unwrap();
            let receipt = provider
                .get_transaction_receipt(hash)
                .await
                .unwrap()
                .unwrap_or_else(|| panic!("payment {} is settled by {hash}, not on-chain", row.id));
            assert!(
                receipt.status(),
                "payment {}'s transaction reverted",
                row.id
            );
            let payer: Address = row.payer.parse().unwrap();
            let pay_to: Address = row.pay_to.parse().unwrap();
            let nonce: B256 = row.nonce.parse().unwrap();
            let amount = U256::from_str_radix(&row.amount, 10).unwrap();
            let tier = TIERS
                .iter()
                .find(|tier| U256::from(tier.chips * BASE_UNITS_PER_CHIP) == amount);
            assert_eq!(
                tier.map(|tier| (tier.name, i64::try_from(tier.chips).unwrap())),
                Some((row.tier.as_str(), row.chips)),
                "payment {} credits the tier whose price is its amount ({} base units)",
                row.id,
                row.amount
            );
            let logs = receipt.logs();
            let proven = logs.windows(2).any(|pair| {
                let used = AuthorizationUsed::decode_log(&pair[0].inner)
                    .is_ok_and(|u| u.authorizer == payer && u.nonce == nonce);
                let transfer = Transfer::decode_log(&pair[1].inner)
                    .is_ok_and(|t| t.from == payer && t.to == pay_to && t.value == amount);
                used && transfer
            });
            assert!(
                proven,
                "payment {}'s transaction {hash} does not transfer its authorization's amount to the pay-to address",
                row.id
            );
            paid_in += amount;
        }

        let payers: HashSet<Address> = payments.iter().map(|p| p.payer.parse().unwrap()).collect();
        let pay_tos: HashSet<Address> =
            payments.iter().map(|p| p.pay_to.parse().unwrap()).collect();
        let mut received = U256::ZERO;
        for pay_to in pay_tos {
            let filter = Filter::new()
                .address(self.devnet.token)
                .event_signature(Transfer::SIGNATURE_HASH)
                .topic2(pay_to)
                .from_block(0);
            for log in provider.get_logs(&filter).await.unwrap() {
                let transfer = Transfer::decode_log(&log.inner).unwrap();
                if payers.contains(&transfer.from) {
                    received += transfer.value;
                }
            }
        }
        assert_eq!(
            received,
            paid_in + unowed,
            "the pay-to address received from payers exactly what settled payments credited"
        );
    }
}
