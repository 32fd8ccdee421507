//! The OpenAPI 3.1 document: the interface's version, every route with its input's schema
//! (`Checked<T>`), and the links from one operation's answer to the next operation's input,
//! which tools that walk the API statefully follow (commit, then play the round, then verify
//! the bet; a cashout, then its status).

use std::sync::Arc;

use arcade_core::Game;
use salvo::oapi::OpenApi;
use salvo::prelude::*;
use serde_json::{Value, json};

use crate::inputs::games::endpoint;

/// The interface's version, which the document states; the server's own version goes in
/// `x-server-version`.
pub const INTERFACE_VERSION: &str = "1.0.0";

/// The interface's major version: what a client that reads these shapes checks (the manifest's
/// `api_version`).
pub fn api_version() -> &'static str {
    INTERFACE_VERSION
        .split_once('.')
        .map_or(INTERFACE_VERSION, |(major, _)| major)
}

/// `(from path, method, link name, to path, method, what the link carries)`.
type Link = (
    String,
    &'static str,
    &'static str,
    String,
    &'static str,
    Carries,
);

/// The links: commit to each game, each game to the round and the bet, a cashout to its
/// status, free chips to the balance.
fn links() -> Vec<Link> {
    let mut links = vec![(
        "/api/arcade/commit".to_owned(),
        "post",
        "round",
        "/api/arcade/rounds/{round_id}".to_owned(),
        "get",
        Carries::Path("round_id"),
    )];
    for game in Game::ALL {
        let path = format!("/api/arcade/{}", endpoint(game));
        links.push((
            "/api/arcade/commit".to_owned(),
            "post",
            endpoint(game),
            path.clone(),
            "post",
            Carries::Body("round_id"),
        ));
        links.push((
            path.clone(),
            "post",
            "round",
            "/api/arcade/rounds/{round_id}".to_owned(),
            "get",
            Carries::Path("round_id"),
        ));
        links.push((
            path,
            "post",
            "verify",
            "/api/arcade/verify/{bet_id}".to_owned(),
            "get",
            Carries::Path("bet_id"),
        ));
    }
    links.push((
        "/api/arcade/cashout".to_owned(),
        "post",
        "status",
        "/api/arcade/cashout/{cashout_id}".to_owned(),
        "get",
        Carries::Path("cashout_id"),
    ));
    links.push((
        "/api/arcade/free".to_owned(),
        "post",
        "balance",
        "/api/arcade/balance/{address}".to_owned(),
        "get",
        Carries::Path("address"),
    ));
    links
}

/// Which field of the answer the link passes on, and where.
#[derive(Debug, Clone, Copy)]
enum Carries {
    Body(&'static str),
    Path(&'static str),
}

/// The document, built once: salvo's from the routes, then the links (salvo's own link type
/// does not write OpenAPI's field names, so they are added to the JSON), then what `annotate`
/// adds (`payment_info`).
pub fn document(
    arcade_routes: &Router,
    housebot_routes: &Router,
    annotate: impl FnOnce(&mut Value),
) -> Document {
    let mut doc = OpenApi::new("arcade", INTERFACE_VERSION)
        .merge_router(arcade_routes)
        .merge_router(housebot_routes);
    doc.info
        .extensions
        .insert("x-server-version".into(), json!(env!("CARGO_PKG_VERSION")));
    // At start (`api::service`); and it cannot fail: the document's maps have string keys.
    let mut value = serde_json::to_value(&doc).expect("the document serializes");
    add_links(&mut value);
    annotate(&mut value);
    Document(Arc::new(value))
}

/// The OpenAPI document, served as JSON.
#[derive(Clone)]
pub struct Document(Arc<Value>);

#[async_trait]
impl Handler for Document {
    async fn handle(
        &self,
        _req: &mut Request,
        _depot: &mut Depot,
        res: &mut Response,
        _ctrl: &mut FlowCtrl,
    ) {
        res.render(Json(self.0.as_ref()));
    }
}

fn add_links(doc: &mut Value) {
    for (from, method, name, to, to_method, carries) in links() {
        let target = format!("#/paths/{}/{to_method}", to.replace('/', "~1"));
        let link = match carries {
            Carries::Body(field) => json!({
                "operationRef": target,
                "requestBody": { field: format!("$response.body#/{field}") },
            }),
            Carries::Path(field) => json!({
                "operationRef": target,
                "parameters": { field: format!("$response.body#/{field}") },
            }),
        };
        let answer = format!("/paths/{}/{method}/responses/200", from.replace('/', "~1"));
        if let Some(answer) = doc.pointer_mut(&answer).filter(|a| a.is_object()) {
            answer["links"][name] = link;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn links_point_at_operations_that_exist() {
        let mut doc = json!({ "paths": {
            "/api/arcade/commit": { "post": { "responses": { "200": {} } } },
        } });
        add_links(&mut doc);
        let link = &doc["paths"]["/api/arcade/commit"]["post"]["responses"]["200"]["links"]["flip"];
        assert_eq!(link["operationRef"], "#/paths/~1api~1arcade~1flip/post");
        assert_eq!(link["requestBody"]["round_id"], "$response.body#/round_id");
        assert_eq!(
            doc["paths"].as_object().unwrap().len(),
            1,
            "no path is made up for links from operations the document lacks"
        );
    }
}
