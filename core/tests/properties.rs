//! Property tests of the payout invariants: the house edge is exactly the documented one, the
//! max-wager function is tight, and nothing overflows at any settleable wager.

use arcade_core::{
    BetKind, ByteStream, Call, ClaimedRoll, ClientSeed, DiceCall, Direction, Game, LimboCall,
    Limits, MAX_SETTLEABLE_WAGER, RouletteBet, Round, ServerSeed, Side,
};
use hmac::{Hmac, KeyInit, Mac};
use proptest::prelude::*;
use sha2::Sha256;

fn any_call() -> impl Strategy<Value = Call> {
    prop_oneof![
        prop_oneof![Just(Side::Heads), Just(Side::Tails)].prop_map(Call::Coinflip),
        (
            1u32..=99,
            prop_oneof![Just(Direction::Under), Just(Direction::Over)]
        )
            .prop_map(|(t, d)| Call::Dice(DiceCall::new(t, d).unwrap())),
        (0usize..13, 0u32..37).prop_map(|(k, n)| {
            let kind = BetKind::ALL[k];
            let number = (kind == BetKind::Straight).then_some(n);
            Call::Roulette(RouletteBet::new(kind, number).unwrap())
        }),
        (101u64..=100_000_000).prop_map(|t| Call::Limbo(LimboCall::new(t).unwrap())),
    ]
}

/// The documented house edge as `(numerator, denominator)`.
fn documented_edge(game: Game) -> (u128, u128) {
    match game {
        Game::Coinflip | Game::Dice => (1, 100),
        Game::Roulette => (1, 37),
        Game::Limbo => (1, 100),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// (W/N) * R == wager * (1 - edge) exactly, and the fractional-chip draw adds less than
    /// 2^-32 chip of expected value, so the house edge is never negative.
    #[test]
    fn house_edge_is_the_documented_one(call in any_call(), wager in 1u64..=1_000_000) {
        let (w, n) = (u128::from(call.winning_count()), u128::from(call.game().outcomes()));
        let r = call.win_return(wager);
        let (a, b) = (r.numerator(), r.denominator());
        let (e_num, e_den) = documented_edge(call.game());
        // W * a / (N * b) == wager * (e_den - e_num) / e_den
        prop_assert_eq!(w * a * e_den, n * b * u128::from(wager) * (e_den - e_num));

        // Bonus chip: paid for u1 in [0, c), c = ceil(rem * 2^32 / b).
        let c = (r.remainder() << 32).div_ceil(b);
        if c > 0 {
            prop_assert!(r.bonus(u32::try_from(c - 1).unwrap()));
        }
        if c < 1 << 32 {
            prop_assert!(!r.bonus(u32::try_from(c).unwrap()));
        }
        // E[payout | win] * 2^32 = floor * 2^32 + c, within [a/b, a/b + 2^-32) chips.
        let e_win = (r.floor() << 32) + c;
        let excess = e_win * b - (a << 32);
        prop_assert!(excess < b, "expected win return is off by {excess}/{b} of 2^-32");
        // Expected return per round below the wager: the house keeps an edge.
        prop_assert!(w * e_win < n * (u128::from(wager) << 32));
    }

    /// The max wager never admits a wager whose profit exceeds the limit, admits itself and
    /// every lower wager, and is the largest such (or the wager limit).
    #[test]
    fn max_wager_is_tight(
        call in any_call(),
        max_payout in 1u64..=10_000,
        max_wager_chips in 1u64..=5_000,
        wager in 1u64..=6_000,
    ) {
        let limits = Limits {
            max_payout_chips: max_payout,
            max_wager_chips,
            daily_win_cap_chips: u64::MAX,
            ..Limits::SPEC
        };
        let max = limits.max_wager(&call);
        prop_assert!(max <= max_wager_chips);
        if max >= 1 {
            prop_assert!(call.potential_profit(max) <= u128::from(max_payout));
            prop_assert!(limits.check_wager(&call, max, 0).is_ok());
            prop_assert!(limits.check_wager(&call, max - 1, 0).is_ok() || max == 1);
        }
        if max < max_wager_chips {
            prop_assert!(call.potential_profit(max + 1) > u128::from(max_payout));
        }
        let accepted = limits.check_wager(&call, wager, 0);
        prop_assert_eq!(accepted.is_ok(), wager <= max, "wager {} max {} {:?}", wager, max, accepted);
        if let Err(e) = accepted {
            prop_assert_eq!(e.max_wager(), Some(max));
        }
    }

    /// Settling never overflows and pays floor(R) or ceil(R) on a win, 0 on a loss.
    #[test]
    fn settlement_never_overflows(
        call in any_call(),
        wager in prop_oneof![1u64..=1_000, 1u64..=MAX_SETTLEABLE_WAGER, Just(MAX_SETTLEABLE_WAGER)],
        seed_bytes in any::<[u8; 32]>(),
        client in "[a-zA-Z0-9 ]{1,40}",
        nonce in any::<u64>(),
    ) {
        let seed_text = arcade_core::server_seed_from_bytes(&seed_bytes);
        let round = Round::new(
            ServerSeed::parse(&seed_text).unwrap(),
            ClientSeed::parse(&client).unwrap(),
            nonce,
            call,
            wager,
        );
        let r = call.win_return(wager);
        let Ok(round) = round else {
            // Refused only when a win could return more than i64::MAX chips.
            prop_assert!(r.ceil() > i64::MAX as u128);
            return Ok(());
        };
        let s = round.settle();
        if s.won {
            prop_assert!(u128::from(s.payout) == r.floor() || u128::from(s.payout) == r.ceil());
            // Every multiplier is above 1, so a win never pays less than the wager.
            prop_assert!(s.payout >= wager);
        } else {
            prop_assert_eq!(s.payout, 0);
        }
        prop_assert_eq!(i128::from(s.profit), i128::from(s.payout) - i128::from(wager));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(65536))]

    /// A claimed roll is shown from its shortest digits exactly as Rust's `{}` shows the f64,
    /// whichever notation the digits came in: `{:e}` (the server) or the plain notation
    /// JavaScript uses between 1e-7 and 1e21 (the wasm verifier).
    #[test]
    fn claimed_roll_shows_like_the_f64(bits in any::<u64>(), hundredths in 0u32..=10_000) {
        for value in [f64::from_bits(bits), f64::from(hundredths) / 100.0] {
            let shown = format!("{value}");
            prop_assert_eq!(ClaimedRoll::from_f64(value).to_string(), shown.as_str());
            if value.is_finite() {
                prop_assert_eq!(ClaimedRoll::new(value, &format!("{value:e}")).unwrap().to_string(), shown.as_str());
                prop_assert_eq!(ClaimedRoll::new(value, &shown).unwrap().to_string(), shown.as_str());
            }
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(4096))]

    /// block(r) is RustCrypto's HMAC-SHA256 of `client_seed:nonce:r` under the key, for keys
    /// shorter than, as long as and longer than SHA-256's 64-byte block.
    #[test]
    fn the_stream_is_hmac_sha256(
        key in proptest::collection::vec(any::<u8>(), 0..200),
        client_seed in ".{0,80}",
        nonce in any::<u64>(),
        r in 0u64..1000,
    ) {
        let mut mac = <Hmac<Sha256> as KeyInit>::new_from_slice(&key).unwrap();
        mac.update(format!("{client_seed}:{nonce}:{r}").as_bytes());
        let expected: [u8; 32] = mac.finalize().into_bytes().into();
        prop_assert_eq!(ByteStream::new(&key, &client_seed, nonce).block(r), expected);
    }
}

#[test]
fn wagers_outside_the_settleable_range_are_refused() {
    let seed = "0".repeat(64);
    let round = |wager| {
        Round::new(
            ServerSeed::parse(&seed).unwrap(),
            ClientSeed::parse("c").unwrap(),
            0,
            Call::Coinflip(Side::Heads),
            wager,
        )
    };
    assert!(round(0).is_err());
    assert!(round(MAX_SETTLEABLE_WAGER + 1).is_err());
    assert!(round(MAX_SETTLEABLE_WAGER).is_ok());
}

/// A wager whose win would return more than `i64::MAX` chips (limbo at its top target on the
/// largest settleable wager) is refused, never settled to a saturated payout; the largest
/// return of the other games still settles at that wager.
#[test]
fn a_win_too_large_to_hold_is_refused_not_saturated() {
    let seed = "0".repeat(64);
    let round = |call: Call| {
        Round::new(
            ServerSeed::parse(&seed).unwrap(),
            ClientSeed::parse("c").unwrap(),
            0,
            call,
            MAX_SETTLEABLE_WAGER,
        )
    };
    let top = LimboCall::new(u64::from(arcade_core::limbo::MAX_HUNDREDTHS)).unwrap();
    assert!(matches!(
        round(Call::Limbo(top)),
        Err(arcade_core::ReceiptError::WagerOutOfRange { .. })
    ));
    let longest_odds = DiceCall::new(1, Direction::Under).unwrap();
    let settled = round(Call::Dice(longest_odds)).unwrap().settle();
    assert!(settled.profit >= -(MAX_SETTLEABLE_WAGER as i64));
}
