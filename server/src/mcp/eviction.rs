//! Which MCP session gives way when a new one needs room: at a client's own cap its own idlest;
//! at the global cap a session out of use (unused for two minutes) while there is one, else
//! any, and of those the idlest of the party holding the most, the widest network first. So one
//! client's flood of `initialize`, or a thousand cheap clients' of one network, ends only its
//! own sessions, and a flood from many networks ends sessions out of use before any in use.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rmcp::transport::streamable_http_server::session::SessionId;

use crate::rate_limits::{Caller, ClientKey};

/// A live session: who opened it and when it was last used.
#[derive(Debug, Clone, Copy)]
pub(super) struct Live {
    pub owner: Caller,
    pub used: Instant,
}

/// How many sessions may live: in all, and held by one client.
#[derive(Debug, Clone, Copy)]
pub(super) struct Caps {
    pub max: usize,
    pub per_client: usize,
}

/// The session to end before `client` opens another, if there is no room: `client`'s own
/// idlest at its own cap; at the global cap, among the sessions out of use for [`IN_USE`]
/// (all of them if none is), the idlest of the party holding the most (see [`parties`]).
pub(super) fn to_end_before_opening(
    sessions: &HashMap<SessionId, Live>,
    client: Caller,
    caps: Caps,
    now: Instant,
) -> Option<SessionId> {
    let own = sessions
        .values()
        .filter(|live| live.owner == client)
        .count();
    let mut candidates: Vec<(&SessionId, &Live)> = if own >= caps.per_client {
        sessions
            .iter()
            .filter(|(_, live)| live.owner == client)
            .collect()
    } else if sessions.len() >= caps.max {
        out_of_use_first(sessions, now)
    } else {
        return None;
    };
    if own < caps.per_client {
        let requester = parties(client);
        for (level, own_party) in requester.into_iter().enumerate() {
            let party = busiest(&candidates, level, own_party)?;
            candidates.retain(|(_, live)| parties(live.owner)[level] == party);
        }
    }
    candidates
        .into_iter()
        .min_by_key(|(_, live)| live.used)
        .map(|(id, _)| id.clone())
}

/// A session used this recently is in use.
const IN_USE: Duration = Duration::from_secs(120);

/// The sessions of `sessions` out of use at `now`, or every one if all are in use: a session
/// in use is never ended for a newcomer while one out of use is there, however many networks
/// the newcomers come from; among sessions alike in use, a flood from one client or one
/// network ends its own.
fn out_of_use_first(sessions: &HashMap<SessionId, Live>, now: Instant) -> Vec<(&SessionId, &Live)> {
    let out_of_use: Vec<_> = sessions
        .iter()
        .filter(|(_, live)| now.saturating_duration_since(live.used) >= IN_USE)
        .collect();
    if out_of_use.is_empty() {
        sessions.iter().collect()
    } else {
        out_of_use
    }
}

/// The party at `level` holding the most of `candidates`; at a tie the requester's own
/// (`requester`), then the one whose idlest session is idlest.
fn busiest(candidates: &[(&SessionId, &Live)], level: usize, requester: Party) -> Option<Party> {
    let mut held: HashMap<Party, (usize, Instant)> = HashMap::new();
    for (_, live) in candidates {
        let entry = held
            .entry(parties(live.owner)[level])
            .or_insert((0, live.used));
        entry.0 += 1;
        entry.1 = entry.1.min(live.used);
    }
    held.into_iter()
        .max_by_key(|(party, (count, idlest))| {
            (*count, *party == requester, std::cmp::Reverse(*idlest))
        })
        .map(|(party, _)| party)
}

/// How many levels of networks a client is seen in.
const LEVELS: usize = 4;

/// A network at one level (its address with the bits past the level's prefix zeroed): who
/// holds the sessions when the cap is reached. Parties are compared within a level only.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
enum Party {
    House,
    Overflow,
    V4([u8; 4]),
    /// Within the client's /64.
    V6([u8; 8]),
}

/// The networks `client` belongs to, widest first: an IPv6 client's /32, /48, /56 and /64, an
/// IPv4 client's /16, /24 and address. At the global cap, among the candidates, the widest
/// network holding the most gives way, then the busiest network within it, down to one client:
/// a thousand cheap /64s of one /48 (or addresses of one /24) count as one party, so they end
/// their own sessions and never an active client's elsewhere with a few.
fn parties(client: Caller) -> [Party; LEVELS] {
    match client {
        Caller::House => [Party::House; LEVELS],
        Caller::Client(ClientKey::Overflow) => [Party::Overflow; LEVELS],
        Caller::Client(ClientKey::V4(octets)) => {
            let network = |bytes: usize| {
                let mut prefix = [0u8; 4];
                prefix[..bytes].copy_from_slice(&octets[..bytes]);
                Party::V4(prefix)
            };
            [network(2), network(3), network(4), network(4)]
        }
        Caller::Client(ClientKey::V6(octets)) => {
            let network = |bytes: usize| {
                let mut prefix = [0u8; 8];
                prefix[..bytes].copy_from_slice(&octets[..bytes]);
                Party::V6(prefix)
            };
            [network(4), network(6), network(7), network(8)]
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Sessions as `CappedSessions` keeps them.
    struct Capped {
        live: std::sync::Mutex<HashMap<SessionId, Live>>,
        caps: Caps,
    }

    impl Capped {
        fn new(max: usize, per_client: usize) -> Self {
            Self {
                live: std::sync::Mutex::default(),
                caps: Caps { max, per_client },
            }
        }

        fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Live>> {
            self.live.lock().unwrap()
        }

        fn to_end_before_opening(&self, client: Caller) -> Option<SessionId> {
            to_end_before_opening(&self.sessions(), client, self.caps, Instant::now())
        }
    }

    fn client(last: u8) -> Caller {
        Caller::Client(ClientKey::V4([198, 51, 100, last]))
    }

    /// Sessions `(id, owner)`, each used a millisecond after the one before.
    fn with(max: usize, per_client: usize, opened: &[(&str, Caller)]) -> Capped {
        let capped = Capped::new(max, per_client);
        let start = Instant::now();
        let mut sessions = capped.sessions();
        for (n, (id, owner)) in opened.iter().enumerate() {
            let used = start + Duration::from_millis(n as u64);
            sessions.insert(
                SessionId::from(*id),
                Live {
                    owner: *owner,
                    used,
                },
            );
        }
        drop(sessions);
        capped
    }

    fn ended(capped: &Capped, client: Caller) -> Option<String> {
        capped
            .to_end_before_opening(client)
            .map(|id| id.to_string())
    }

    #[test]
    fn a_client_at_its_own_cap_ends_its_own_idlest() {
        let (a, b) = (client(1), client(2));
        let capped = with(10, 2, &[("a1", a), ("b1", b), ("b2", b)]);
        assert_eq!(ended(&capped, b).as_deref(), Some("b1"));
        assert_eq!(ended(&capped, a), None, "room for a's second");
    }

    #[test]
    fn at_the_global_cap_the_client_holding_the_most_gives_way() {
        let (a, b, c) = (client(1), client(2), client(3));
        let capped = with(
            5,
            16,
            &[("a1", a), ("a2", a), ("b1", b), ("b2", b), ("b3", b)],
        );
        // A newcomer, or a, ends b's idlest, not a's idler ones.
        assert_eq!(ended(&capped, c).as_deref(), Some("b1"));
        assert_eq!(ended(&capped, a).as_deref(), Some("b1"));
        // Holding as many as the busiest, the requester ends its own.
        let capped = with(4, 16, &[("a1", a), ("b1", b), ("a2", a), ("b2", b)]);
        assert_eq!(ended(&capped, b).as_deref(), Some("b1"));
        assert_eq!(ended(&capped, a).as_deref(), Some("a1"));
    }

    fn v6(hextets: [u16; 4]) -> Caller {
        let mut prefix = [0u8; 8];
        for (pair, hextet) in prefix.chunks_mut(2).zip(hextets) {
            pair.copy_from_slice(&hextet.to_be_bytes());
        }
        Caller::Client(ClientKey::V6(prefix))
    }

    #[test]
    fn many_clients_of_one_network_count_as_one_party() {
        // Sixteen /64s of one /54 beside one client of another /48, idlest of all: the /54's
        // network holds the most, so one of its own sessions ends.
        let honest = v6([0x2001, 0xdb8, 0xbbbb, 0]);
        let mut opened = vec![("honest".to_owned(), honest)];
        opened.extend((0..16).map(|n| (format!("s{n}"), v6([0x2001, 0xdb8, 0xaaaa, n]))));
        let opened: Vec<(&str, Caller)> = opened.iter().map(|(id, c)| (id.as_str(), *c)).collect();
        let capped = with(17, 16, &opened);
        assert_eq!(
            ended(&capped, v6([0x2001, 0xdb8, 0xaaaa, 99])).as_deref(),
            Some("s0")
        );
        assert_eq!(
            ended(&capped, v6([0x2001, 0xdb9, 0, 0])).as_deref(),
            Some("s0")
        );
        assert_eq!(ended(&capped, honest).as_deref(), Some("s0"));

        // IPv4: addresses of one /24 count as one party against a lone address elsewhere.
        let lone = Caller::Client(ClientKey::V4([192, 0, 2, 1]));
        let mut opened = vec![("lone".to_owned(), lone)];
        opened.extend((0..8).map(|n| (format!("t{n}"), client(10 + n))));
        let opened: Vec<(&str, Caller)> = opened.iter().map(|(id, c)| (id.as_str(), *c)).collect();
        let capped = with(9, 16, &opened);
        assert_eq!(ended(&capped, client(200)).as_deref(), Some("t0"));
        assert_eq!(ended(&capped, lone).as_deref(), Some("t0"));
    }

    /// Sessions out of use from ninety networks beside ten in use from one ISP's network:
    /// newcomers from yet more networks end those out of use, never one in use.
    #[test]
    fn a_flood_from_many_networks_ends_idle_sessions_not_active_ones() {
        let mut opened: Vec<(String, Caller)> = Vec::new();
        for n in 0..90u8 {
            let idle = Caller::Client(ClientKey::V4([10 + n, 1, 1, 1]));
            opened.push((format!("idle{n}"), idle));
        }
        for n in 0..10u8 {
            let active = Caller::Client(ClientKey::V4([203, 0, n, 7]));
            opened.push((format!("active{n}"), active));
        }
        let opened: Vec<(&str, Caller)> = opened.iter().map(|(id, c)| (id.as_str(), *c)).collect();
        let capped = with(100, 16, &opened);
        let long_ago = Instant::now().checked_sub(2 * IN_USE).unwrap();
        for (id, live) in capped.sessions().iter_mut() {
            if id.starts_with("idle") {
                live.used = long_ago;
            }
        }
        for n in 0..40u8 {
            let newcomer = Caller::Client(ClientKey::V4([150 + n, 2, 2, 2]));
            let ended = capped.to_end_before_opening(newcomer).expect("at the cap");
            assert!(!ended.to_string().starts_with("active"), "{ended} ended");
            let mut sessions = capped.sessions();
            sessions.remove(&ended);
            let live = Live {
                owner: newcomer,
                used: Instant::now() + Duration::from_secs(1),
            };
            sessions.insert(SessionId::from(format!("new{n}").as_str()), live);
        }
    }
}
