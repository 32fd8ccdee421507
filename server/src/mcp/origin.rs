//! The `Origin` check of `/api/mcp` (DNS-rebinding defence the MCP spec requires): requests
//! without an Origin (agents, CLIs) pass; a browser origin must be the public URL's or one of
//! `mcp.allowed_origins`.

use salvo::prelude::*;

use crate::error::ApiError;
use crate::public_url::{PublicUrl, origin_of};

#[derive(Debug, Clone)]
pub struct AllowedOrigins(Vec<String>);

impl AllowedOrigins {
    pub fn new(public_url: &PublicUrl, configured: &[String]) -> Self {
        let mut origins: Vec<String> = configured
            .iter()
            .map(|o| origin_of(o).unwrap_or_else(|| o.trim_end_matches('/').to_owned()))
            .collect();
        origins.push(public_url.origin());
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_public_origin_and_the_configured_ones_are_allowed() {
        let public_url = PublicUrl::parse("https://arcade.example/base").unwrap();
        let allowed = AllowedOrigins::new(&public_url, &["https://agents.example/".to_owned()]);
        assert!(allowed.allows("https://arcade.example"));
        assert!(allowed.allows("https://agents.example"));
        assert!(!allowed.allows("https://evil.example"));
        assert!(!allowed.allows("null"));
    }
}
