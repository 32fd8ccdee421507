//! The `Origin` check of `/api/mcp` (DNS-rebinding defence the MCP spec requires): requests
//! without an Origin (agents, CLIs) pass; a browser origin must be the public URL's or one of
//! `mcp.allowed_origins`.

use salvo::prelude::*;

use crate::error::ApiError;

#[derive(Debug, Clone)]
pub struct AllowedOrigins(Vec<String>);

impl AllowedOrigins {
    pub fn new(public_url: &str, configured: &[String]) -> Self {
        let mut origins: Vec<String> = configured
            .iter()
            .map(|o| o.trim_end_matches('/').to_owned())
            .collect();
        if let Some(origin) = origin_of(public_url) {
            origins.push(origin);
        }
        Self(origins)
    }

    pub fn list(&self) -> Vec<String> {
        self.0.clone()
    }

    fn allows(&self, origin: &str) -> bool {
        let origin = origin.trim_end_matches('/');
        self.0
            .iter()
            .any(|allowed| allowed.eq_ignore_ascii_case(origin))
    }
}

#[async_trait]
impl Handler for AllowedOrigins {
    async fn handle(
        &self,
        req: &mut Request,
        _depot: &mut Depot,
        res: &mut Response,
        ctrl: &mut FlowCtrl,
    ) {
        let Some(origin) = req.headers().get("origin") else {
            return;
        };
        let origin = origin.to_str().unwrap_or("\u{fffd}");
        if !self.allows(origin) {
            res.render(ApiError::OriginForbidden(origin.to_owned()));
            ctrl.skip_rest();
        }
    }
}

/// `scheme://host[:port]` of a URL.
fn origin_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let host = rest
        .split(['/', '?', '#'])
        .next()
        .filter(|h| !h.is_empty())?;
    Some(format!("{scheme}://{host}"))
}

/// The host (without port) of a URL, as the Host check wants it.
pub fn host_of(url: &str) -> Option<String> {
    let origin = origin_of(url)?;
    let authority = origin.split_once("://")?.1;
    let host = match authority.rsplit_once(':') {
        Some((host, port)) if port.bytes().all(|b| b.is_ascii_digit()) => host,
        _ => authority,
    };
    Some(host.trim_matches(['[', ']']).to_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_origin_and_the_configured_ones_are_allowed() {
        let allowed = AllowedOrigins::new(
            "https://arcade.example/base",
            &["https://agents.example/".to_owned()],
        );
        assert!(allowed.allows("https://arcade.example"));
        assert!(allowed.allows("https://agents.example"));
        assert!(!allowed.allows("https://evil.example"));
        assert!(!allowed.allows("null"));
        assert_eq!(
            host_of("http://127.0.0.1:8402").as_deref(),
            Some("127.0.0.1")
        );
        assert_eq!(
            host_of("https://arcade.example/x").as_deref(),
            Some("arcade.example")
        );
    }
}
