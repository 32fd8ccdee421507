//! Reading the token's logs: whether one receipt's logs prove an authorization's transfer, and
//! which transaction a nonce's `AuthorizationUsed`/`AuthorizationCanceled` log names. Pure.

use alloy::primitives::{Address, B256};
use alloy::rpc::types::Log;
use alloy::sol_types::SolEvent;

use super::proof::ExpectedPayment;
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

/// Whether one receipt's `logs` (in order) hold the token's `AuthorizationUsed(payer, nonce)`
/// immediately followed by its `Transfer(payer → pay_to, value)`.
pub fn pays(logs: &[Log], token: Address, expected: &ExpectedPayment) -> bool {
    logs.windows(2)
        .any(|pair| uses_nonce(&pair[0], token, expected) && transfers(&pair[1], token, expected))
}

fn uses_nonce(log: &Log, token: Address, expected: &ExpectedPayment) -> bool {
    log.address() == token
        && AuthorizationUsed::decode_log(&log.inner)
            .is_ok_and(|used| used.authorizer == expected.payer && used.nonce == expected.nonce)
}

fn transfers(log: &Log, token: Address, expected: &ExpectedPayment) -> bool {
    log.address() == token
        && TransferEvent::decode_log(&log.inner).is_ok_and(|transfer| {
            transfer.from == expected.payer
                && transfer.to == expected.pay_to
                && transfer.value == expected.value
        })
}

#[cfg(test)]
mod tests {
    use alloy::primitives::{LogData, U256};

    use super::*;

    const TOKEN: Address = Address::repeat_byte(0x70);
    const OTHER_TOKEN: Address = Address::repeat_byte(0x71);
    const PAYER: Address = Address::repeat_byte(0x01);
    const PAY_TO: Address = Address::repeat_byte(0x02);
    const THIEF: Address = Address::repeat_byte(0x03);

    fn expected() -> ExpectedPayment {
        ExpectedPayment {
            payer: PAYER,
            pay_to: PAY_TO,
            value: U256::from(1_000_000u64),
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
            transfer(TOKEN, PAYER, PAY_TO, 1_000_000),
        ]
    }

    #[test]
    fn the_authorizations_own_pair_proves_payment() {
        assert!(pays(&the_pair(), TOKEN, &expected()));
        // Other logs around it (a relayer's multicall, a fee transfer) do not matter.
        let mut logs = vec![transfer(TOKEN, THIEF, PAY_TO, 5)];
        logs.extend(the_pair());
        logs.push(used(TOKEN, PAYER, B256::repeat_byte(0xbb)));
        assert!(pays(&logs, TOKEN, &expected()));
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
        assert!(!pays(&logs, TOKEN, &e));
    }

    #[test]
    fn each_field_of_the_pair_must_match() {
        let e = expected();
        let spoiled: [[Log; 2]; 7] = [
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
            [
                used(TOKEN, PAYER, e.nonce),
                transfer(TOKEN, PAYER, PAY_TO, 999_999),
            ],
        ];
        for (i, logs) in spoiled.iter().enumerate() {
            assert!(!pays(logs, TOKEN, &e), "case {i} must not prove payment");
        }
    }

    #[test]
    fn the_pair_in_the_wrong_order_or_apart_proves_nothing() {
        let [used_log, transfer_log] = the_pair();
        let e = expected();
        assert!(!pays(&[transfer_log.clone(), used_log.clone()], TOKEN, &e));
        let apart = [used_log, transfer(TOKEN, THIEF, THIEF, 1), transfer_log];
        assert!(!pays(&apart, TOKEN, &e));
        assert!(!pays(&[], TOKEN, &e));
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
