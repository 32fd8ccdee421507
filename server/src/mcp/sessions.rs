//! A cap on live MCP sessions: a new session beyond `mcp.max_sessions` first ends the idlest
//! one (its client's next call with that id gets 404 and it initializes again). The sessions
//! themselves are rmcp's; this only counts them and remembers when each was last used.

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use futures::Stream;
use rmcp::model::{ClientJsonRpcMessage, ServerJsonRpcMessage};
use rmcp::transport::streamable_http_server::session::{
    EventStore, RestoreOutcome, ServerSseMessage, SessionId, SessionManager,
};

use crate::telemetry::metrics;

pub struct CappedSessions<M> {
    inner: M,
    max: usize,
    last_used: Mutex<HashMap<SessionId, Instant>>,
    /// One creation at a time, so two cannot both take the last place.
    creating: tokio::sync::Mutex<()>,
}

impl<M> CappedSessions<M> {
    pub fn new(inner: M, max: usize) -> Self {
        Self {
            inner,
            max: max.max(1),
            last_used: Mutex::new(HashMap::new()),
            creating: tokio::sync::Mutex::new(()),
        }
    }

    fn sessions(&self) -> std::sync::MutexGuard<'_, HashMap<SessionId, Instant>> {
        self.last_used.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Forgets a session that ended.
    fn forget(&self, id: &SessionId) {
        let mut sessions = self.sessions();
        if sessions.remove(id).is_some() {
            metrics::mcp_sessions(sessions.len());
        }
    }

    fn touch(&self, id: &SessionId) {
        if let Some(used) = self.sessions().get_mut(id) {
            *used = Instant::now();
        }
    }

    /// The idlest session, if there is no room for another.
    fn idlest_if_full(&self) -> Option<SessionId> {
        let sessions = self.sessions();
        if sessions.len() < self.max {
            return None;
        }
        sessions
            .iter()
            .min_by_key(|(_, used)| **used)
            .map(|(id, _)| id.clone())
    }
}

impl<M: SessionManager> SessionManager for CappedSessions<M> {
    type Error = M::Error;
    type Transport = M::Transport;

    async fn create_session(&self) -> Result<(SessionId, Self::Transport), Self::Error> {
        let _one_at_a_time = self.creating.lock().await;
        while let Some(idlest) = self.idlest_if_full() {
            self.forget(&idlest);
            if let Err(error) = self.inner.close_session(&idlest).await {
                tracing::warn!(%error, "ending the idlest MCP session");
            }
            tracing::info!(session = %idlest, "MCP session cap reached: the idlest session ended");
        }
        let (id, transport) = self.inner.create_session().await?;
        let live = {
            let mut sessions = self.sessions();
            sessions.insert(id.clone(), Instant::now());
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
