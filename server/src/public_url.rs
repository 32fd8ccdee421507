//! The service's public URL, read once with the `url` crate: the auth statement names its
//! authority, the MCP endpoint allows its origin and its host.

use url::Url;

#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PublicUrl(Url);

#[derive(Debug, thiserror::Error)]
#[error("server.public_url {0:?} is not an http(s) URL with a host")]
pub struct BadPublicUrl(pub String);

impl PublicUrl {
    pub fn parse(text: &str) -> Result<Self, BadPublicUrl> {
        Url::parse(text)
            .ok()
            .filter(|url| matches!(url.scheme(), "http" | "https") && url.host().is_some())
            .map(Self)
            .ok_or_else(|| BadPublicUrl(text.to_owned()))
    }

    /// `host[:port]` (the port only when it is not the scheme's default), as the auth
    /// statement names the deployment.
    pub fn authority(&self) -> String {
        let host = self.0.host_str().unwrap_or_default();
        match self.0.port() {
            Some(port) => format!("{host}:{port}"),
            None => host.to_owned(),
        }
    }

    /// The URL itself (no trailing slash), as the auth statement's `URI` names it.
    pub fn uri(&self) -> String {
        self.0.as_str().trim_end_matches('/').to_owned()
    }

    /// `scheme://host[:port]`, as a browser sends `Origin`.
    pub fn origin(&self) -> String {
        self.0.origin().ascii_serialization()
    }

    /// The host alone (an IPv6 address without its brackets), as the `Host` check wants it.
    pub fn host(&self) -> String {
        let host = self.0.host_str().unwrap_or_default();
        host.trim_matches(['[', ']']).to_owned()
    }

    /// Whether clients reach the service on this machine only (`127.0.0.1`, `[::1]`,
    /// `localhost`): anything else is reached through a network, usually through a proxy.
    pub fn is_loopback(&self) -> bool {
        is_loopback_host(&self.host())
    }
}

/// The origin of a URL given as text (an entry of `mcp.allowed_origins`), if it is one.
pub fn origin_of(text: &str) -> Option<String> {
    PublicUrl::parse(text).ok().map(|url| url.origin())
}

/// Whether `host` (a name or an interface to listen on) is reachable only from this machine.
pub fn is_loopback_host(host: &str) -> bool {
    host.eq_ignore_ascii_case("localhost")
        || host
            .trim_matches(['[', ']'])
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn authority_origin_and_host() {
        let url = PublicUrl::parse("https://Arcade.Example/base?x=1").unwrap();
        assert_eq!(url.authority(), "arcade.example");
        assert_eq!(url.origin(), "https://arcade.example");
        assert_eq!(url.host(), "arcade.example");
        let local = PublicUrl::parse("http://127.0.0.1:8402").unwrap();
        assert_eq!(local.authority(), "127.0.0.1:8402");
        assert_eq!(local.origin(), "http://127.0.0.1:8402");
        let default_port = PublicUrl::parse("https://arcade.example:443/").unwrap();
        assert_eq!(default_port.authority(), "arcade.example");
        let v6 = PublicUrl::parse("http://[::1]:9000").unwrap();
        assert_eq!(v6.host(), "::1");
        assert_eq!(v6.authority(), "[::1]:9000");
    }

    #[test]
    fn only_web_urls_with_a_host() {
        for bad in [
            "https://",
            "arcade.example",
            "ftp://arcade.example",
            "mailto:a@b",
        ] {
            assert!(PublicUrl::parse(bad).is_err(), "{bad}");
        }
        assert_eq!(
            origin_of("https://agents.example/").as_deref(),
            Some("https://agents.example")
        );
    }
}
