//! The MCP server as clients see it: its capabilities (tools, resources, prompts and
//! completions, each served), its instructions, and each request handed to the module that
//! answers it: `tools`, `resources`, `prompts`, `completions`.
//!
//! Protocol revisions are rmcp's: a client that initializes gets the revision it asks for if
//! rmcp knows it (2025-03-26, 2025-06-18, 2025-11-25; the official npm SDK 1.32 and PyPI mcp
//! both ask for 2025-11-25, the newest with `initialize`), and 2026-07-28 requests are served
//! statelessly.

use http::request::Parts;
use rmcp::model::{
    CompleteRequestParams, CompleteResult, GetPromptRequestParams, GetPromptResponse,
    Implementation, ListPromptsResult, ListResourceTemplatesResult, ListResourcesResult,
    PaginatedRequestParams, ReadResourceRequestParams, ReadResourceResponse, ServerCapabilities,
    ServerConfig,
};
use rmcp::service::RequestContext;
use rmcp::{ErrorData, RoleServer, ServerHandler, tool_handler};

use super::tools::{ArcadeTools, INSTRUCTIONS, caller, game_tools};
use super::{prompts, resources};
use crate::rate_limits::{Caller, ClientKey};

#[tool_handler(router = self.tools)]
impl ServerHandler for ArcadeTools {
    fn get_info(&self) -> ServerConfig {
        let capabilities = ServerCapabilities::builder()
            .enable_completions()
            .enable_prompts()
            .enable_resources()
            .enable_tools()
            .build();
        ServerConfig::new(capabilities)
            .with_server_info(Implementation::new("arcade", env!("CARGO_PKG_VERSION")))
            .with_instructions(INSTRUCTIONS.replace("{games}", &game_tools()))
    }

    async fn list_resources(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourcesResult, ErrorData> {
        Ok(resources::list())
    }

    async fn list_resource_templates(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListResourceTemplatesResult, ErrorData> {
        Ok(resources::templates())
    }

    async fn read_resource(
        &self,
        request: ReadResourceRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<ReadResourceResponse, ErrorData> {
        let read = self.read(&request.uri, caller_of(&context)).await?;
        Ok(read.into())
    }

    async fn list_prompts(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListPromptsResult, ErrorData> {
        Ok(prompts::list())
    }

    async fn get_prompt(
        &self,
        request: GetPromptRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<GetPromptResponse, ErrorData> {
        Ok(prompts::get(&request.name, request.arguments)?.into())
    }

    async fn complete(
        &self,
        request: CompleteRequestParams,
        context: RequestContext<RoleServer>,
    ) -> Result<CompleteResult, ErrorData> {
        self.complete_argument(&request.r#ref, &request.argument, caller_of(&context))
            .await
    }
}

/// The caller of a request, as the edge identified it (its HTTP parts ride in the context).
fn caller_of(context: &RequestContext<RoleServer>) -> Caller {
    context
        .extensions
        .get::<Parts>()
        .map_or(Caller::Client(ClientKey::Overflow), caller)
}
