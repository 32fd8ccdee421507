//! Reading the token's logs: what one receipt's logs prove an authorization moved, and which
//! transaction a nonce's `AuthorizationUsed`/`AuthorizationCanceled` log names. Pure.

use alloy::primitives::{Address, B256, U256};
use alloy::rpc::types::Log;
use alloy::sol_types::SolEvent;

use super::token::DollarToken::{
    AuthorizationCanceled, AuthorizationUsed, Transfer as TransferEvent,
};

/// The transaction that consumed a nonce, as the token's logs name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct NonceUse {
    pub tx: B256,
    pub block: u64,
    pub canceled: bool,
}

pub(super) fn nonce_use_of(log: &Log) -> Option<NonceUse> {
    let (tx, block) = (log.transaction_hash?, log.block_number?);
    let topic = *log.topic0()?;
    (!log.removed).then_some(NonceUse {
        tx,
        block,
        canceled: topic == AuthorizationCanceled::SIGNATURE_HASH,
    })
}

/// The transfer a purchase waits for: the payer's authorization `nonce`, paying `pay_to`.
/// The value is what the chain proves it moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ExpectedPayment {
    pub payer: Address,
    pub pay_to: Address,
    pub nonce: B256,
}

/// The value the authorization moved to the pay-to address, if one receipt's `logs` (in order)
/// hold the token's `AuthorizationUsed(payer, nonce)` immediately followed by its
/// `Transfer(payer → pay_to, value)`. The value is reported, not matched: a payer may land any
/// authorization of their nonce, and what it moved is what it buys.
pub fn paid(logs: &[Log], token: Address, expected: &ExpectedPayment) -> Option<U256> {
    logs.windows(2).find_map(|pair| {
        uses_nonce(&pair[0], token, expected)
            .then(|| transferred(&pair[1], token, expected))
            .flatten()
    })
}

fn uses_nonce(log: &Log, token: Address, expected: &ExpectedPayment) -> bool {
    log.address() == token
        && AuthorizationUsed::decode_log(&log.inner)
            .is_ok_and(|used| used.authorizer == expected.payer && used.nonce == expected.nonce)
}

/// The value of `log` if it is the token's `Transfer(payer → pay_to, value)`.
fn transferred(log: &Log, token: Address, expected: &ExpectedPayment) -> Option<U256> {
    if log.address() != token {
        return None;
    }
    let transfer = TransferEvent::decode_log(&log.inner).ok()?;
    (transfer.from == expected.payer && transfer.to == expected.pay_to).then_some(transfer.value)
}

#[cfg(test)]
mod tests {
    use alloy::primitives::LogData;

    use super::*;

    const TOKEN: Address = Address::repeat_byte(0x70);
    const OTHER_TOKEN: Address = Address::repeat_byte(0x71);
    const PAYER: Address = Address::repeat_byte(0x01);
    const PAY_TO: Address = Address::repeat_byte(0x02);
    const THIEF: Address = Address::repeat_byte(0x03);

    const PRICE: u64 = 1_000_000;

    fn expected() -> ExpectedPayment {
        ExpectedPayment {
            payer: PAYER,
            pay_to: PAY_TO,
            nonce: B256::repeat_byte(0xaa),
        }
    }

    fn log(address: Address, data: LogData) -> Log {
        Log {
            inner: alloy::primitives::Log { address, data },
            ..Default::default()
        }
    }

    fn used(token: Address, payer: Address, nonce: B256) -> Log {
        log(
            token,
            AuthorizationUsed {
                authorizer: payer,
                nonce,
            }
            .encode_log_data(),
        )
    }

    fn transfer(token: Address, from: Address, to: Address, value: u64) -> Log {
        log(
            token,
            TransferEvent {
                from,
                to,
                value: U256::from(value),
            }
            .encode_log_data(),
        )
    }

    fn the_pair() -> [Log; 2] {
        let e = expected();
        [
            used(TOKEN, PAYER, e.nonce),
            transfer(TOKEN, PAYER, PAY_TO, PRICE),
        ]
    }

    #[test]
    fn the_authorizations_own_pair_proves_payment() {
        let paid_price = Some(U256::from(PRICE));
        assert_eq!(paid(&the_pair(), TOKEN, &expected()), paid_price);
        // Other logs around it (a relayer's multicall, a fee transfer) do not matter.
        let mut logs = vec![transfer(TOKEN, THIEF, PAY_TO, 5)];
        logs.extend(the_pair());
        logs.push(used(TOKEN, PAYER, B256::repeat_byte(0xbb)));
        logs.push(transfer(TOKEN, PAYER, PAY_TO, 7));
        assert_eq!(paid(&logs, TOKEN, &expected()), paid_price);
    }

    #[test]
    fn the_pair_reports_the_value_it_moved_whatever_was_presented() {
        // Another authorization of the same nonce (a smaller one, or one of no tier's price)
        // proves what it moved; what it buys is decided from that value.
        let e = expected();
        for value in [10_000, 12_345, 0] {
            let logs = [
                used(TOKEN, PAYER, e.nonce),
                transfer(TOKEN, PAYER, PAY_TO, value),
            ];
            assert_eq!(paid(&logs, TOKEN, &e), Some(U256::from(value)));
        }
    }

    #[test]
    fn a_multicall_pairing_the_nonce_with_another_transfer_proves_nothing() {
        // Authorization B (another nonce) pays the house; authorization A (our nonce) pays the
        // payer's accomplice. Both events are in the receipt, but not as A's pair.
        let e = expected();
        let logs = [
            used(TOKEN, PAYER, B256::repeat_byte(0xbb)),
            transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
            used(TOKEN, PAYER, e.nonce),
            transfer(TOKEN, PAYER, THIEF, 1_000_000),
        ];
        assert_eq!(paid(&logs, TOKEN, &e), None);
    }

    #[test]
    fn each_field_of_the_pair_must_match() {
        let e = expected();
        let spoiled: [[Log; 2]; 6] = [
            [
                used(OTHER_TOKEN, PAYER, e.nonce),
                transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, PAYER, e.nonce),
                transfer(OTHER_TOKEN, PAYER, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, THIEF, e.nonce),
                transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, PAYER, B256::repeat_byte(0xbb)),
                transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, PAYER, e.nonce),
                transfer(TOKEN, THIEF, PAY_TO, 1_000_000),
            ],
            [
                used(TOKEN, PAYER, e.nonce),
                transfer(TOKEN, PAYER, THIEF, 1_000_000),
            ],
        ];
        for (i, logs) in spoiled.iter().enumerate() {
            assert_eq!(
                paid(logs, TOKEN, &e),
                None,
                "case {i} must not prove payment"
            );
        }
    }

    #[test]
    fn the_pair_in_the_wrong_order_or_apart_proves_nothing() {
        let [used_log, transfer_log] = the_pair();
        let e = expected();
        let reversed = [transfer_log.clone(), used_log.clone()];
        assert_eq!(paid(&reversed, TOKEN, &e), None);
        let apart = [used_log, transfer(TOKEN, THIEF, THIEF, 1), transfer_log];
        assert_eq!(paid(&apart, TOKEN, &e), None);
        assert_eq!(paid(&[], TOKEN, &e), None);
    }

    #[test]
    fn a_cancellation_is_recognised_in_the_logs() {
        let nonce = B256::repeat_byte(0xaa);
        let mut canceled = log(
            TOKEN,
            AuthorizationCanceled {
                authorizer: PAYER,
                nonce,
            }
            .encode_log_data(),
        );
        canceled.transaction_hash = Some(B256::repeat_byte(0x0c));
        canceled.block_number = Some(7);
        assert_eq!(
            nonce_use_of(&canceled),
            Some(NonceUse {
                tx: B256::repeat_byte(0x0c),
                block: 7,
                canceled: true
            })
        );
        let mut used_log = used(TOKEN, PAYER, nonce);
        used_log.transaction_hash = Some(B256::repeat_byte(0x0d));
        used_log.block_number = Some(8);
        assert!(nonce_use_of(&used_log).is_some_and(|u| !u.canceled));
        used_log.removed = true;
        assert_eq!(
            nonce_use_of(&used_log),
            None,
            "a log reorged away is no use"
        );
    }
}
