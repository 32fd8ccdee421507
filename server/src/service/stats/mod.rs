//! Public numbers: the games listing (with live round counts) and the floor statistics split
//! between the service's own wallets and everyone else, both read from the floor's snapshot
//! (`floor.rs`) and counted in its figures (`figures.rs`).

use std::collections::BTreeMap;
use std::sync::Arc;

use arcade_core::{Game, Limits, MAX_CLIENT_SEED_CHARS, MIN_WAGER};
use salvo::oapi::ToSchema;
use serde::Serialize;

use super::seeds::house::Seeds;
use super::signed_marks::SignedMarks;
use crate::service::error::ServiceError;
use crate::settings::RoundSettings;
use crate::tiers::{CHIP_VALUE_USD, TIERS};

pub mod figures;
pub mod floor;
mod playable;

use figures::{CashoutTotals, FloorStats};
use floor::Floor;
pub use playable::{Playable, TargetRange};

/// How the edge names each game: the route it is played at, and its call's parameters with
/// what each accepts (from its input schema), for the listing and its steps.
#[derive(Clone, Copy)]
pub struct GameWire {
    pub route: fn(Game) -> &'static str,
    pub params: fn(Game) -> BTreeMap<String, String>,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GamesListing {
    pub chip_value_usd: f64,
    pub buy_in_tiers: Vec<BuyInTier>,
    pub limits: LimitsView,
    pub games: Vec<GameEntry>,
    pub how_to_play: Vec<String>,
    /// The address that signs commitments, receipts and seed batches (EIP-712, EIP-55).
    pub signer: String,
    /// The EIP-712 domain of those signatures: `{name, version, chainId}`.
    #[salvo(schema(value_type = Object))]
    pub signing_domain: serde_json::Value,
    /// The signed marks, as the manifest publishes them.
    pub signed_marks: SignedMarks,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct BuyInTier {
    pub tier: String,
    pub price: String,
    pub chips: u64,
    pub endpoint: String,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct LimitsView {
    pub min_wager_chips: u64,
    pub max_wager_chips: u64,
    /// The largest profit one round may pay; longer odds therefore accept smaller wagers.
    pub max_payout_chips: u64,
    pub daily_win_cap_chips: u64,
    pub min_cashout_chips: u64,
    pub max_cashout_chips: u64,
    pub free_chips: u64,
    pub max_client_seed_chars: usize,
}

#[derive(Debug, Serialize, ToSchema)]
pub struct GameEntry {
    pub name: String,
    pub endpoint: String,
    /// Parameter name to the values it accepts (the descriptions of the call's input schema).
    pub params: BTreeMap<String, String>,
    /// Rounds of this game settled so far.
    pub rounds: i64,
    /// What the deployment's limits leave playable: each call a wager of `min_wager_chips`
    /// can play and the largest wager it takes (coinflip, roulette: `max_wager`; dice:
    /// `targets`; limbo: `min_playable_target`, `max_playable_target`), from the check every
    /// play passes. A call outside it is refused at every wager.
    pub playable: Playable,
}

#[derive(Debug, Default, Serialize, ToSchema)]
pub struct HouseStats {
    /// Every round on the floor.
    pub all: FloorStats,
    /// Rounds played by the service's own wallets (`house_wallets`).
    pub house_wallets: FloorStats,
    /// Rounds played by everyone else.
    pub players: FloorStats,
    /// The service's own wallets, checksummed.
    pub house_wallet_addresses: Vec<String>,
    /// Chips redeemed for the token.
    pub cashouts: CashoutTotals,
}

/// The games listing and the house's statistics.
pub struct Stats {
    floor: Floor,
    limits: Limits,
    /// The listing says how many rounds an address may hold open, and for how long.
    rounds: RoundSettings,
    /// The listing names the signer and its domain.
    seeds: Arc<Seeds>,
    marks: Arc<SignedMarks>,
    /// The listing names each game's route and parameters as the edge serves them.
    wire: GameWire,
}

impl Stats {
    /// How long an unplayed round stays open, in seconds.
    pub fn round_ttl_secs(&self) -> u64 {
        self.rounds.ttl_secs
    }

    pub fn new(
        floor: Floor,
        limits: Limits,
        rounds: RoundSettings,
        (seeds, marks): (Arc<Seeds>, Arc<SignedMarks>),
        wire: GameWire,
    ) -> Self {
        Self {
            floor,
            limits,
            rounds,
            seeds,
            marks,
            wire,
        }
    }

    pub async fn games(&self) -> Result<GamesListing, ServiceError> {
        let all = self.floor.snapshot().await?.all();
        let rounds_of = |game: Game| all.get(game.as_str()).map_or(0, |s| s.rounds);
        let l = &self.limits;
        Ok(GamesListing {
            chip_value_usd: CHIP_VALUE_USD,
            buy_in_tiers: TIERS
                .iter()
                .map(|t| BuyInTier {
                    tier: t.name.into(),
                    price: t.price_text(),
                    chips: t.chips,
                    endpoint: format!("POST /api/arcade/chips/{}", t.name),
                })
                .collect(),
            limits: LimitsView {
                min_wager_chips: MIN_WAGER,
                max_wager_chips: l.max_wager_chips,
                max_payout_chips: l.max_payout_chips,
                daily_win_cap_chips: l.daily_win_cap_chips,
                min_cashout_chips: l.min_cashout_chips,
                max_cashout_chips: l.max_cashout_chips,
                free_chips: l.free_chips,
                max_client_seed_chars: MAX_CLIENT_SEED_CHARS,
            },
            games: Game::ALL
                .into_iter()
                .map(|game| GameEntry {
                    name: game.as_str().into(),
                    endpoint: format!("POST /api/arcade/{}", (self.wire.route)(game)),
                    params: (self.wire.params)(game),
                    rounds: rounds_of(game),
                    playable: playable::playable(l, game),
                })
                .collect(),
            how_to_play: how_to_play(&self.rounds, l, self.wire),
            signer: super::seeds::batches::signer_address(&self.seeds.signer),
            signing_domain: self.seeds.signer.domain(),
            signed_marks: (*self.marks).clone(),
        })
    }

    pub async fn house(&self) -> Result<HouseStats, ServiceError> {
        let floor = self.floor.snapshot().await?;
        let mut house_wallet_addresses: Vec<String> = self
            .floor
            .house_wallets()
            .iter()
            .map(|k| crate::address::display_key(k))
            .collect();
        house_wallet_addresses.sort();
        Ok(HouseStats {
            all: FloorStats::from(floor.all()),
            house_wallets: FloorStats::from(floor.house.clone()),
            players: FloorStats::from(floor.players.clone()),
            house_wallet_addresses,
            cashouts: floor.cashouts.clone(),
        })
    }
}

/// The games' routes as a step names them: `/api/arcade/{flip|dice|…}`.
fn game_routes(wire: GameWire) -> String {
    let routes: Vec<&str> = Game::ALL.into_iter().map(wire.route).collect();
    format!("/api/arcade/{{{}}}", routes.join("|"))
}

fn how_to_play(rounds: &RoundSettings, limits: &Limits, wire: GameWire) -> Vec<String> {
    let mut steps: Vec<String> = [
        "Get chips: POST /api/arcade/free {\"address\"} once per address, or buy them at a tier endpoint (x402).",
        "GET /api/arcade/auth-statement/{address} and sign its `statement` (a Sign-In with Ethereum message) once with personal_sign (EIP-191); POST /api/arcade/auth/rotate revokes it if a signature leaks.",
        "POST /api/arcade/commit {\"address\", \"signature\"}: you get a round_id and the commitment, the SHA-256 of the secret server seed.",
        "POST {games} with the round_id, a fresh random client_seed of your own, an integer wager and your call; add play_signature, your EIP-712 signature of the Play (round_id, your address, the commitment, game, client_seed, call, target, has_number, number, wager; /docs/proofs.md) in the manifest's signing_domain, and verifiers can prove the round against the house.",
        "Check the receipt against what you hold: its commitment is the one of your commit answer, sha256(server_seed) equals it, its nonce is 0, proofs.play is your signature, and the roll re-derives from HMAC-SHA256(server_seed, client_seed:0:0); or GET /api/arcade/verify/{bet_id}. Use a fresh random client seed every round: one the house could guess lets it order its seeds.",
        "Lost an answer? Repeat the same call: it returns the original receipt (replayed: true); GET /api/arcade/rounds/{round_id} shows any round.",
        "Play again with a new commit, or add \"next_round\": true to a signed play: its answer carries your next round (next_round), committed before your next client seed, so each round after the first is one request. Every round has its own server seed.",
        "Cash out (after a purchase): POST /api/arcade/cashout {\"address\", \"chips\" ({cashout_range}), \"signature\"}; the house sends the token on-chain and pays the gas.",
        "Free chips are play money: the balance has a paid pocket (`cashable`) and a free pocket (`free_chips`). A wager stakes free chips first; a win pays each pocket back in proportion to what it staked, the free pocket's share rounded up; a cashout takes paid chips only. Free chips and what they win can be played, never cashed out.",
    ]
    .map(|step| {
        step.replace("{games}", &game_routes(wire)).replace(
            "{cashout_range}",
            &format!(
                "{} to {}",
                limits.min_cashout_chips, limits.max_cashout_chips
            ),
        )
    })
    .to_vec();
    steps.push(format!(
        "An address holds at most {} open rounds; an unplayed round expires after {} seconds (nothing is taken at commit).",
        rounds.max_open_per_address, rounds.ttl_secs
    ));
    steps
}
