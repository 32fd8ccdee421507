//! The typed errors of the core, each with a stable snake_case `code()` that the server's
//! error bodies and the wasm module's JS `Error.code` carry unchanged.

/// A server seed or client seed that fairness v1 does not accept.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    /// A server seed must be exactly 64 characters; it had `len` bytes.
    #[error("server seed must be 64 lowercase hex characters, got {len}")]
    ServerSeedLength {
        /// The length in bytes that was given.
        len: usize,
    },
    /// A server seed must be lowercase hex; the byte at `index` is not.
    #[error("server seed must be 64 lowercase hex characters; character {index} is not 0-9 or a-f")]
    ServerSeedNotLowercaseHex {
        /// Byte offset of the first offending character.
        index: usize,
    },
    /// A client seed must have at least one character.
    #[error("client seed must not be empty")]
    ClientSeedEmpty,
    /// A client seed has more than 256 characters.
    #[error("client seed must be at most 256 characters, got {chars}")]
    ClientSeedTooLong {
        /// How many characters (Unicode scalar values) it had.
        chars: usize,
    },
    /// A client seed contains a control character.
    #[error("client seed must not contain control characters; character {index} is one")]
    ClientSeedControlCharacter {
        /// Character index (not byte offset) of the first control character.
        index: usize,
    },
}

impl SeedError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::ServerSeedLength { .. } | Self::ServerSeedNotLowercaseHex { .. } => {
                "invalid_server_seed"
            }
            _ => "invalid_client_seed",
        }
    }
}

/// Game parameters outside what the game accepts.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum CallError {
    /// Dice targets are 1 to 99.
    #[error("dice target must be 1 to 99, got {target}")]
    DiceTargetOutOfRange {
        /// The target given.
        target: u32,
    },
    /// Roulette numbers are 0 to 36.
    #[error("roulette number must be 0 to 36, got {number}")]
    RouletteNumberOutOfRange {
        /// The number given.
        number: u32,
    },
    /// A straight bet names the number it is on.
    #[error("a straight bet needs `number` (0 to 36)")]
    RouletteNumberRequired,
    /// Only a straight bet takes a number.
    #[error("`number` is only for straight bets; leave it null")]
    RouletteNumberNotAllowed,
    /// A field of a call outside what its game accepts, in the game's own words.
    #[error("{field} {rule}")]
    Invalid {
        /// The call's field.
        field: &'static str,
        /// What the field must be.
        rule: &'static str,
    },
}

impl CallError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        "invalid_call"
    }

    /// The call's field the error is about.
    pub fn field(&self) -> &'static str {
        match self {
            Self::DiceTargetOutOfRange { .. } => "target",
            Self::RouletteNumberOutOfRange { .. }
            | Self::RouletteNumberRequired
            | Self::RouletteNumberNotAllowed => "number",
            Self::Invalid { field, .. } => field,
        }
    }
}

/// A wager the limits refuse. Payouts are never clipped: a wager is either allowed whole or refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum LimitError {
    /// Wagers start at 1 chip.
    #[error("wager must be at least 1 chip, got {wager}")]
    WagerBelowMinimum {
        /// The wager given.
        wager: u64,
    },
    /// The wager exceeds the per-wager limit.
    #[error("wager {wager} is above the limit; the largest wager for this call is {max_wager}")]
    WagerAboveLimit {
        /// The wager given.
        wager: u64,
        /// The largest wager allowed for this call.
        max_wager: u64,
    },
    /// A win would pay more profit than the payout limit.
    #[error(
        "a win on wager {wager} would pay {potential_profit} chips of profit, above the payout limit of {max_payout}; the largest wager for this call is {max_wager}"
    )]
    PayoutAboveLimit {
        /// The wager given.
        wager: u64,
        /// The profit a win would pay (`ceil(R) - wager`).
        potential_profit: u64,
        /// The payout limit.
        max_payout: u64,
        /// The largest wager allowed for this call.
        max_wager: u64,
    },
    /// A win would take today's net winnings above the daily cap.
    #[error(
        "a win would pay {potential_profit} chips of profit and today's net winnings are {net_today}; the daily win cap is {cap}"
    )]
    DailyWinCap {
        /// Net winnings so far today (negative when down).
        net_today: i64,
        /// The profit a win would pay.
        potential_profit: u64,
        /// The daily cap.
        cap: u64,
    },
}

impl LimitError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::WagerBelowMinimum { .. } => "wager_below_minimum",
            Self::WagerAboveLimit { .. } => "wager_above_limit",
            Self::PayoutAboveLimit { .. } => "payout_above_limit",
            Self::DailyWinCap { .. } => "daily_win_cap",
        }
    }

    /// The largest wager that would be accepted for the same call, where the error knows it.
    pub fn max_wager(&self) -> Option<u64> {
        match self {
            Self::WagerAboveLimit { max_wager, .. } | Self::PayoutAboveLimit { max_wager, .. } => {
                Some(*max_wager)
            }
            _ => None,
        }
    }
}

/// A receipt that cannot be re-derived at all (as opposed to one that re-derives to a mismatch).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ReceiptError {
    /// Only fairness version 1 exists.
    #[error("fairness version {version} is not supported (only 1)")]
    UnsupportedVersion {
        /// The version the receipt names.
        version: u32,
    },
    /// A field the receipt's game needs is absent.
    #[error("receipt is missing `{field}`")]
    MissingField {
        /// Dotted path of the field, e.g. `params.target`.
        field: &'static str,
    },
    /// A claimed outcome the game cannot draw.
    #[error("receipt's `{field}` is not an outcome of its game")]
    OutcomeOutOfRange {
        /// Dotted path of the field, e.g. `result.pocket`.
        field: &'static str,
    },
    /// The wager is 0 or too large to settle.
    #[error("receipt wager {wager} is not a settleable wager")]
    WagerOutOfRange {
        /// The wager given.
        wager: u64,
    },
    /// A seed in the receipt is malformed.
    #[error(transparent)]
    Seed(#[from] SeedError),
    /// The receipt's call is malformed.
    #[error(transparent)]
    Call(#[from] CallError),
}

impl ReceiptError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        match self {
            Self::UnsupportedVersion { .. } => "unsupported_version",
            Self::MissingField { .. }
            | Self::OutcomeOutOfRange { .. }
            | Self::WagerOutOfRange { .. } => "invalid_receipt",
            Self::Seed(e) => e.code(),
            Self::Call(e) => e.code(),
        }
    }
}

/// A stake that cannot be split between the pockets.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum PocketError {
    /// A wager is at least one chip.
    #[error("a wager must be at least 1 chip")]
    ZeroWager,
    /// More free chips staked than the whole wager.
    #[error("{from_free} free chips cannot be staked of a wager of {wager}")]
    FreeAboveWager {
        /// Free chips said to be staked.
        from_free: u64,
        /// The whole wager.
        wager: u64,
    },
}

impl PocketError {
    /// Stable machine-readable code.
    pub fn code(&self) -> &'static str {
        "invalid_stake"
    }
}
