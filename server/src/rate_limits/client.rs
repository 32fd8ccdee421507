//! Who a request comes from: the peer's IP, or the client a trusted proxy names in
//! `X-Forwarded-For`. IPv6 clients are keyed by their /64 (one subscriber's network), so
//! rotating addresses within it buys no new budget.

use std::net::IpAddr;

use ipnet::IpNet;

/// A rate-limit key.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum ClientKey {
    V4([u8; 4]),
    /// The /64 prefix.
    V6([u8; 8]),
    /// Clients beyond `rate_limits.max_clients`, sharing one bucket.
    Overflow,
}

impl ClientKey {
    pub fn of(ip: IpAddr) -> Self {
        match ip.to_canonical() {
            IpAddr::V4(v4) => Self::V4(v4.octets()),
            IpAddr::V6(v6) => {
                let octets = v6.octets();
                let mut prefix = [0u8; 8];
                prefix.copy_from_slice(&octets[..8]);
                Self::V6(prefix)
            }
        }
    }
}

/// The proxies whose `X-Forwarded-For` is believed.
#[derive(Debug, Clone, Default)]
pub struct TrustedProxies(Vec<IpNet>);

#[derive(Debug, thiserror::Error)]
#[error("rate_limits.trusted_proxies: {0:?} is neither an IP address nor a CIDR block")]
pub struct BadProxy(String);

impl TrustedProxies {
    pub fn parse(entries: &[String]) -> Result<Self, BadProxy> {
        entries
            .iter()
            .map(|entry| {
                let entry = entry.trim();
                entry
                    .parse::<IpNet>()
                    .or_else(|_| entry.parse::<IpAddr>().map(IpNet::from))
                    .map_err(|_| BadProxy(entry.to_owned()))
            })
            .collect::<Result<_, _>>()
            .map(Self)
    }

    fn trusts(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// The client's IP: walking `X-Forwarded-For` from the peer leftwards, the first hop that
    /// is not a trusted proxy. An unparsable hop ends the walk at the last trusted one.
    pub fn client_ip(&self, peer: IpAddr, forwarded_for: &[&str]) -> IpAddr {
        let mut client = peer;
        let hops = forwarded_for
            .iter()
            .flat_map(|header| header.split(','))
            .map(str::trim)
            .rev();
        for hop in hops {
            if !self.trusts(client) {
                break;
            }
            match hop.parse::<IpAddr>() {
                Ok(ip) => client = ip,
                Err(_) => break,
            }
        }
        client
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ip(text: &str) -> IpAddr {
        text.parse().unwrap()
    }

    #[test]
    fn ipv6_clients_are_keyed_by_their_64() {
        assert_eq!(
            ClientKey::of(ip("2001:db8:1:2:aaaa::1")),
            ClientKey::of(ip("2001:db8:1:2:ffff:ffff:ffff:ffff"))
        );
        assert_ne!(
            ClientKey::of(ip("2001:db8:1:2::1")),
            ClientKey::of(ip("2001:db8:1:3::1"))
        );
        assert_eq!(
            ClientKey::of(ip("::ffff:192.0.2.7")),
            ClientKey::V4([192, 0, 2, 7])
        );
    }

    #[test]
    fn forwarded_for_is_believed_only_from_trusted_proxies() {
        let proxies = TrustedProxies::parse(&["10.0.0.0/8".into(), "2001:db8::1".into()]).unwrap();
        // From a trusted proxy: the hop before it.
        assert_eq!(
            proxies.client_ip(ip("10.0.0.5"), &["198.51.100.7"]),
            ip("198.51.100.7")
        );
        // Through two trusted proxies; a client-written entry further left is ignored.
        assert_eq!(
            proxies.client_ip(ip("10.0.0.5"), &["6.6.6.6, 198.51.100.7", "10.1.1.1"]),
            ip("198.51.100.7")
        );
        // Not from a proxy: the header is the client's own words.
        assert_eq!(
            proxies.client_ip(ip("203.0.113.9"), &["198.51.100.7"]),
            ip("203.0.113.9")
        );
        // A garbled hop stops the walk at the last trusted one.
        assert_eq!(
            proxies.client_ip(ip("2001:db8::1"), &["not-an-ip"]),
            ip("2001:db8::1")
        );
        assert!(TrustedProxies::parse(&["10.0.0.0/33".into()]).is_err());
    }
}
