//! Caps on live MCP sessions: one client (the rate limiter's: the peer IP, IPv6 by /64, or the
//! client a trusted proxy names) holds at most `mcp.max_sessions_per_client`, and a new session
//! beyond it ends that client's own idlest one; at `mcp.max_sessions` in all, a new session ends
//! another as `eviction.rs` chooses. An ended session's next call gets 404 and its client
//! initializes again. The sessions themselves are rmcp's; this only counts them, remembers who
//! opened each and when each was last used.
//!
//! rmcp creates a session without the request; the handler runs rmcp inside
//! [`on_behalf_of`], which tells `create_session` whose it is.

use std::collections::HashMap;
use std::future::Future;
use std::sync::Mutex;
use std::time::Instant;

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};

use super::eviction::{Caps, Live, to_end_before_opening};
use crate::rate_limits::{Caller, ClientKey};
use crate::telemetry::metrics;

tokio::task_local! {
    /// The client whose request rmcp is serving.
    static CLIENT: Caller;
}

/// Runs `serve` (rmcp answering one request) on behalf of `client`: a session it creates is
/// that client's.
pub async fn on_behalf_of<F: Future>(client: Caller, serve: F) -> F::Output {
    CLIENT.scope(client, serve).await
}

/// The client being served; clients nobody identified share one owner.
fn current_client() -> Caller {
    CLIENT
        .try_with(|client| *client)
        .unwrap_or(Caller::Client(ClientKey::Overflow))
}

pub struct CappedSessions<M> {
    inner: M,
    caps: Caps,
    live: Mutex<HashMap<SessionId, Live>>,
    /// One creation at a time, so two cannot both take the last place.
    creating: tokio::sync::Mutex<()>,
}

impl<M> CappedSessions<M> {
    pub fn new(inner: M, max: usize, max_per_client: usize) -> Self {
        Self {
            inner,
            caps: Caps {
                max: max.max(1),
                per_client: max_per_client.max(1),
            },
            live: Mutex::new(HashMap::new()),
            creating: tokio::sync::Mutex::new(()),
        }
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Live>> {
        self.live.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets a session that ended.
    fn forget(&self, id: &SessionId) {
        let mut sessions = self.sessions();
        if sessions.remove(id).is_some() {
            metrics::mcp_sessions(sessions.len());
        }
    }

    fn touch(&self, id: &SessionId) {
        if let Some(live) = self.sessions().get_mut(id) {
            live.used = Instant::now();
        }
    }

    /// The session to end before `client` opens another, if there is no room (`eviction`).
    fn to_end_before_opening(&self, client: Caller) -> Option<SessionId> {
        to_end_before_opening(&self.sessions(), client, self.caps, Instant::now())
    }
}

impl<M: SessionManager> SessionManager for CappedSessions<M> {
    type Error = M::Error;
    type Transport = M::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let client = current_client();
        let _one_at_a_time = self.creating.lock().await;
        while let Some(idlest) = self.to_end_before_opening(client) {
            self.forget(&idlest);
            if let Err(error) = self.inner.close_session(&idlest).await {
                tracing::warn!(%error, "ending the idlest MCP session");
            }
            tracing::info!(session = %idlest, "MCP session cap reached: an idlest session ended");
        }
        let (id, transport) = self.inner.create_session().await?;
        let live = {
            let mut sessions = self.sessions();
            let opened = Live {
                owner: client,
                used: Instant::now(),
            };
            sessions.insert(id.clone(), opened);
            sessions.len()
        };
        metrics::mcp_session_opened(live);
        Ok((id, transport))
    }

    async fn initialize_session(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<ServerJsonRpcMessage, Self::Error> {
        self.touch(id);
        self.inner.initialize_session(id, message).await
    }

    async fn has_session(&self, id: &SessionId) -> Result<bool, Self::Error> {
        let live = self.inner.has_session(id).await?;
        if !live {
            self.forget(id);
        }
        Ok(live)
    }

    async fn close_session(&self, id: &SessionId) -> Result<(), Self::Error> {
        self.forget(id);
        self.inner.close_session(id).await
    }

    async fn create_stream(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_stream(id, message).await
    }

    async fn accept_message(
        &self,
        id: &SessionId,
        message: ClientJsonRpcMessage,
    ) -> Result<(), Self::Error> {
        self.touch(id);
        self.inner.accept_message(id, message).await
    }

    async fn create_standalone_stream(
        &self,
        id: &SessionId,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.create_standalone_stream(id).await
    }

    async fn resume(
        &self,
        id: &SessionId,
        last_event_id: String,
    ) -> Result<impl Stream<Item = ServerSseMessage> + Send + Sync + 'static, Self::Error> {
        self.touch(id);
        self.inner.resume(id, last_event_id).await
    }

    async fn restore_session(
        &self,
        id: SessionId,
    ) -> Result<RestoreOutcome<Self::Transport>, Self::Error> {
        self.inner.restore_session(id).await
    }

    fn event_store(&self) -> Option<std::sync::Arc<dyn EventStore>> {
        self.inner.event_store()
    }
}
