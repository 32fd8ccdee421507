//! The fields of a call and of a settled result that the signed `Receipt` and `Play` carry
//! (`call`, `target`, `has_number`, `number`, `outcome`), held to the table of docs/proofs.md
//! case by case (over every golden vector, the games' descriptions are held to the same:
//! `description.rs`).

use arcade_core::wire::{CallParams, ParamsInput};
use arcade_core::{
    BetKind, Call, DiceCall, Direction, Game, GameResult, LimboCall, RouletteBet, Side, SignedCall,
};
use serde_json::json;

fn dice(target: u32, direction: Direction) -> Call {
    Call::Dice(DiceCall::new(target, direction).unwrap())
}

fn roulette(kind: BetKind, number: Option<u32>) -> Call {
    Call::Roulette(RouletteBet::new(kind, number).unwrap())
}

fn limbo(target: u64) -> Call {
    Call::Limbo(LimboCall::new(target).unwrap())
}

fn signed(call: &'static str, target: u64, number: Option<u32>) -> SignedCall {
    SignedCall {
        call,
        target,
        number,
    }
}

#[test]
fn signed_call_follows_the_table() {
    let cases = [
        (Call::Coinflip(Side::Heads), signed("heads", 0, None)),
        (Call::Coinflip(Side::Tails), signed("tails", 0, None)),
        (dice(50, Direction::Under), signed("under", 50, None)),
        (dice(1, Direction::Over), signed("over", 1, None)),
        (dice(99, Direction::Over), signed("over", 99, None)),
        (
            roulette(BetKind::Straight, Some(17)),
            signed("straight", 0, Some(17)),
        ),
        (roulette(BetKind::Red, None), signed("red", 0, None)),
        (roulette(BetKind::Dozen2, None), signed("dozen2", 0, None)),
        (roulette(BetKind::Column3, None), signed("column3", 0, None)),
        (limbo(101), signed("limbo", 101, None)),
        (limbo(100_000_000), signed("limbo", 100_000_000, None)),
    ];
    for (call, expected) in cases {
        assert_eq!(call.signed(), expected, "{call:?}");
    }
    // A straight bet on zero names a number, and it is 0.
    let zero = roulette(BetKind::Straight, Some(0)).signed();
    assert_eq!((zero.has_number(), zero.number_or_zero()), (true, 0));
    let red = roulette(BetKind::Red, None).signed();
    assert_eq!((red.has_number(), red.number_or_zero()), (false, 0));
    // A dice receipt without a direction plays (and signs) under.
    let params: ParamsInput = serde_json::from_value(json!({ "target": 40 })).unwrap();
    assert_eq!(
        params.to_call(Game::Dice).unwrap().signed(),
        signed("under", 40, None)
    );
}

#[test]
fn signed_outcome_follows_the_table() {
    let outcome = |call: Call, u0: u32| GameResult::draw(&call, u0).signed_outcome();
    // coinflip: 1 for heads (top bit of u_0 set), 0 for tails.
    assert_eq!(outcome(Call::Coinflip(Side::Tails), 0), 0);
    assert_eq!(outcome(Call::Coinflip(Side::Tails), (1 << 31) - 1), 0);
    assert_eq!(outcome(Call::Coinflip(Side::Tails), 1 << 31), 1);
    assert_eq!(outcome(Call::Coinflip(Side::Heads), u32::MAX), 1);
    // dice: the roll in hundredths; roulette: the pocket.
    assert_eq!(outcome(dice(50, Direction::Under), 0), 0);
    assert_eq!(outcome(dice(50, Direction::Over), u32::MAX), 10_000);
    assert_eq!(outcome(roulette(BetKind::Red, None), 0), 0);
    assert_eq!(outcome(roulette(BetKind::Red, None), u32::MAX), 36);
    // limbo: the result in hundredths.
    assert_eq!(outcome(limbo(200), 0), 100_000_000);
    assert_eq!(outcome(limbo(200), 1 << 31), 198);
    assert_eq!(outcome(limbo(200), u32::MAX), 100);
}

#[test]
fn params_read_back_as_the_call_they_show() {
    let mut calls: Vec<Call> = Side::ALL.into_iter().map(Call::Coinflip).collect();
    for target in 1..=99 {
        calls.extend(Direction::ALL.map(|direction| dice(target, direction)));
    }
    for kind in BetKind::ALL {
        if kind == BetKind::Straight {
            calls.extend((0..37).map(|n| roulette(kind, Some(n))));
        } else {
            calls.push(roulette(kind, None));
        }
    }
    calls.extend([101, 199, 200, 12_345, 100_000_000].map(limbo));
    for call in calls {
        let shown = serde_json::to_value(CallParams(&call)).unwrap();
        let read: ParamsInput = serde_json::from_value(shown.clone()).unwrap();
        assert_eq!(read.to_call(call.game()), Ok(call), "{shown}");
        assert_eq!(json!(call.game()), json!(call.game().as_str()));
    }
}

#[test]
fn a_game_is_named_exactly() {
    for game in Game::ALL {
        let name: Game = serde_json::from_value(json!(game.as_str())).unwrap();
        assert_eq!(name, game);
        assert_eq!(Game::parse(game.as_str()), Some(game));
    }
    let unknown = serde_json::from_value::<Game>(json!("poker")).unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "unknown variant `poker`, expected one of `coinflip`, `dice`, `roulette`, `limbo`"
    );
    assert_eq!(Game::parse("Dice"), None);
}
