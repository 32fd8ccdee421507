//! Every tool the arcade serves over MCP, in one router: the tools of `tools.rs`, the game tools
//! (`games.rs`) and the purchase (`buy.rs`), each annotated with what it does
//! (`annotations.rs`) and publishing its input's schema made small (`arguments::published`).
//! Descriptions are a sentence or two: the instructions, the prompts and `arcade://rules` say
//! the rest.

use std::sync::Arc;

use rmcp::handler::server::router::tool::ToolRouter;

use super::annotations::{annotations, effect};
use super::arguments::published;
use super::tools::ArcadeTools;

/// The router every session serves.
pub fn router() -> ToolRouter<ArcadeTools> {
    let mut router = ArcadeTools::tool_router();
    for route in super::games::routes() {
        router.add_route(route);
    }
    router.add_route(super::buy::route());
    for route in router.map.values_mut() {
        route.attr.annotations = effect(&route.attr.name).map(annotations);
        route.attr.input_schema = Arc::new(published(&route.attr.input_schema));
    }
    router
}
