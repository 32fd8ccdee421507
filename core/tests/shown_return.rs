//! Which games' receipts show the exact return of a win (fairness v1 names it for dice: a win
//! pays `return_num / return_den` chips), and that what is shown is the return that is paid.

use arcade_core::{BetKind, Call, DiceCall, Direction, LimboCall, RouletteBet, Side};

#[test]
fn only_dice_receipts_show_the_exact_return_and_it_is_the_one_paid() {
    let dice = Call::Dice(DiceCall::new(50, Direction::Under).unwrap());
    for wager in [1, 7, 1000] {
        let shown = dice.shown_return(wager).expect("dice shows its return");
        let paid = dice.win_return(wager);
        assert_eq!(
            (shown.numerator(), shown.denominator()),
            (paid.numerator(), paid.denominator())
        );
    }
    let others = [
        Call::Coinflip(Side::Heads),
        Call::Roulette(RouletteBet::new(BetKind::Red, None).unwrap()),
        Call::Limbo(LimboCall::new(200).unwrap()),
    ];
    for call in others {
        assert!(call.shown_return(10).is_none(), "{:?}", call.game());
    }
}
