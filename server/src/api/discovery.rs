//! What each paid resource says about itself, so that discovery services and agents can list
//! the arcade from its 402 alone: the `resource` (what the buyer gets, the MIME type, the
//! service name and tags) and the `bazaar` extension (x402 v2 `specs/extensions/bazaar.md`):
//! `info`, how to call the resource and an example of what it answers, and `schema`, a JSON
//! Schema (2020-12) that validates `info`, shaped as the official SDKs'
//! `declareDiscoveryExtension` (TypeScript `@x402/extensions/bazaar`, Python
//! `x402.extensions.bazaar`) shape theirs, enriched per request with the method and, on the tier
//! route, `pathParams` and `routeTemplate`.
//!
//! The 402 of every chip endpoint and the manifest both take it from here.

use serde_json::{Map, Value, json};

use crate::inputs::chips::{NoBody, TierPath};
use crate::inputs::schema;
use crate::service::purchases::Purchase;
use crate::tiers::{DEFAULT_TIER, TIERS, Tier};
use crate::x402::Terms;
use crate::x402::payment_identifier::{self, PAYMENT_IDENTIFIER};
use crate::x402::wire::ResourceInfo;

/// The key of the discovery extension in `extensions`.
pub const BAZAAR: &str = "bazaar";
/// The name discovery services list the arcade under: the name its receipts are signed in.
pub const SERVICE_NAME: &str = crate::proofs::DOMAIN_NAME;
/// Topics a catalog can find the arcade by (at most 5, each at most 32 printable ASCII).
pub const TAGS: [&str; 5] = ["arcade", "games", "provably-fair", "chips", "agents"];
/// What every chip endpoint answers with.
pub const MIME_TYPE: &str = "application/json";
/// JSON Schema's dialect, as the bazaar extension requires it.
const DIALECT: &str = "https://json-schema.org/draft/2020-12/schema";

/// A paid resource: the default purchase, or a tier's own endpoint.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ChipsResource {
    /// `/api/arcade/chips`, the default tier.
    Default,
    /// `/api/arcade/chips/{tier}`.
    Tier(&'static Tier),
}

impl ChipsResource {
    pub const DEFAULT_PATH: &str = "/api/arcade/chips";
    /// The tier route, as `routeTemplate` writes it (`:param`).
    pub const TIER_TEMPLATE: &str = "/api/arcade/chips/:tier";

    /// Every paid resource, in the order the manifest lists them.
    pub fn all() -> impl Iterator<Item = Self> {
        std::iter::once(Self::Default).chain(TIERS.iter().map(Self::Tier))
    }

    pub fn tier(self) -> &'static Tier {
        match self {
            Self::Default => &DEFAULT_TIER,
            Self::Tier(tier) => tier,
        }
    }

    /// The path below the base URL.
    pub fn path(self) -> String {
        match self {
            Self::Default => Self::DEFAULT_PATH.to_owned(),
            Self::Tier(tier) => format!("{}/{}", Self::DEFAULT_PATH, tier.name),
        }
    }

    /// The resource's URL under the deployment's public URL.
    pub fn url(self, base_url: &str) -> String {
        format!("{}{}", base_url.trim_end_matches('/'), self.path())
    }
}

/// The methods a chip endpoint sells on (both buy the same chips; a first GET gets the 402).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Method {
    Get,
    Post,
}

impl Method {
    pub const ALL: [Self; 2] = [Self::Get, Self::Post];

    pub fn as_str(self) -> &'static str {
        match self {
            Self::Get => "GET",
            Self::Post => "POST",
        }
    }

    /// The method a request came with (anything but POST reads as GET, as the router sends
    /// only GET and POST here).
    pub fn of(method: &salvo::http::Method) -> Self {
        if method == salvo::http::Method::POST {
            Self::Post
        } else {
            Self::Get
        }
    }
}

/// What a tier buys, in a sentence a catalog can show.
pub fn describe(tier: &Tier) -> String {
    format!(
        "{} chips (the {} tier, {}) for the {SERVICE_NAME}: {} for agents, every round provable \
         by commit-reveal; credited to the address that signs the payment",
        tier.chips,
        tier.name,
        tier.price_text(),
        arcade_core::Game::NAMES.join(", ")
    )
}

/// The challenge's `resource` for a paid resource.
pub fn resource_info(resource: ChipsResource, base_url: &str) -> ResourceInfo {
    ResourceInfo {
        url: resource.url(base_url),
        description: Some(describe(resource.tier())),
        mime_type: Some(MIME_TYPE.into()),
        service_name: Some(SERVICE_NAME.into()),
        tags: TAGS.map(str::to_owned).to_vec(),
    }
}

/// The challenge's `extensions` for a paid resource answering `method`: `{"bazaar": …,
/// "payment-identifier": …}`.
pub fn extensions(
    terms: &Terms,
    resource: ChipsResource,
    method: Method,
    base_url: &str,
) -> Map<String, Value> {
    let mut extensions = Map::new();
    extensions.insert(BAZAAR.into(), bazaar(terms, resource, method, base_url));
    extensions.insert(PAYMENT_IDENTIFIER.into(), payment_identifier::declaration());
    extensions
}

/// The `bazaar` extension: `{info, schema}`, plus `routeTemplate` on the tier route.
pub fn bazaar(terms: &Terms, resource: ChipsResource, method: Method, base_url: &str) -> Value {
    let tier = resource.tier();
    let mut input = Input::of(method);
    let mut extension = Map::new();
    if let ChipsResource::Tier(tier) = resource {
        input.example["pathParams"] = json!({ "tier": tier.name });
        input.schema["pathParams"] = Value::Object(lean(&schema::of::<TierPath>()));
        extension.insert(
            "routeTemplate".into(),
            json!(format!(
                "{}{}",
                base_path(base_url),
                ChipsResource::TIER_TEMPLATE
            )),
        );
    }
    let example = serde_json::to_value(Purchase::example(tier, terms)).unwrap_or_default();
    extension.insert(
        "info".into(),
        json!({ "input": input.example, "output": { "type": "json", "example": example } }),
    );
    extension.insert("schema".into(), input.extension_schema());
    Value::Object(extension)
}

/// The request a paid resource takes: as the extension's `info.input` shows it, its schema's
/// properties and the properties it requires.
struct Input {
    example: Value,
    schema: Value,
    required: Vec<&'static str>,
}

impl Input {
    /// A request by `method`, without path parameters.
    fn of(method: Method) -> Self {
        let mut example = json!({ "type": "http", "method": method.as_str() });
        let mut properties = json!({
            "type": { "type": "string", "const": "http" },
        });
        let mut required = vec!["type", "method"];
        match method {
            // As the SDKs declare a query method with no query parameters.
            Method::Get => {
                properties["method"] =
                    json!({ "type": "string", "enum": ["GET", "HEAD", "DELETE"] });
                properties["queryParams"] = json!({ "type": "object", "properties": {} });
            }
            Method::Post => {
                example["bodyType"] = json!("json");
                example["body"] = json!({});
                properties["method"] =
                    json!({ "type": "string", "enum": ["POST", "PUT", "PATCH"] });
                properties["bodyType"] =
                    json!({ "type": "string", "enum": ["json", "form-data", "text"] });
                properties["body"] = Value::Object(lean(&schema::of::<NoBody>()));
                required.extend(["bodyType", "body"]);
            }
        }
        Self {
            example,
            schema: properties,
            required,
        }
    }

    /// The extension's `schema`: of this input and of a purchase as the output.
    fn extension_schema(self) -> Value {
        let mut example_schema = lean(&schema::of::<Purchase>());
        example_schema.insert("type".into(), json!("object"));
        json!({
            "$schema": DIALECT,
            "type": "object",
            "properties": {
                "input": {
                    "type": "object",
                    "properties": self.schema,
                    "required": self.required,
                    "additionalProperties": false,
                },
                "output": {
                    "type": "object",
                    "properties": {
                        "type": { "type": "string" },
                        "example": example_schema,
                    },
                    "required": ["type"],
                },
            },
            "required": ["input"],
        })
    }
}

/// A generated schema without its prose and examples (the 402 travels in a header; the
/// OpenAPI document has the prose).
fn lean(schema: &Map<String, Value>) -> Map<String, Value> {
    schema
        .iter()
        .filter(|(key, _)| !matches!(key.as_str(), "description" | "examples" | "title"))
        .map(|(key, value)| {
            let value = match value {
                Value::Object(inner) if key == "properties" => Value::Object(
                    inner
                        .iter()
                        .map(|(name, property)| match property {
                            Value::Object(property) => {
                                (name.clone(), Value::Object(lean(property)))
                            }
                            other => (name.clone(), other.clone()),
                        })
                        .collect(),
                ),
                Value::Object(inner) => Value::Object(lean(inner)),
                other => other.clone(),
            };
            (key.clone(), value)
        })
        .collect()
}

/// The path the deployment is served under (empty at the root), for `routeTemplate`.
fn base_path(base_url: &str) -> String {
    url::Url::parse(base_url)
        .map(|url| url.path().trim_end_matches('/').to_owned())
        .unwrap_or_default()
}

#[cfg(test)]
pub(crate) mod tests {
    use alloy::primitives::Address;

    use super::*;

    /// Terms for the tests of what the edge presents.
    pub(crate) fn terms() -> Terms {
        Terms {
            network: "eip155:8453".into(),
            asset: Address::repeat_byte(0x83),
            pay_to: Address::repeat_byte(0x20),
            token_name: "USD Coin".into(),
            token_version: "2".into(),
            max_timeout_seconds: 300,
        }
    }

    #[test]
    fn service_metadata_fits_what_the_sdks_accept() {
        let printable = |text: &str| {
            (1..=32).contains(&text.len()) && text.bytes().all(|b| (0x20..=0x7e).contains(&b))
        };
        assert!(printable(SERVICE_NAME));
        assert!(TAGS.iter().all(|tag| printable(tag)));
    }

    #[test]
    fn the_tier_route_names_its_template_under_the_base_path() {
        let micro = ChipsResource::Tier(&TIERS[0]);
        let at_root = bazaar(&terms(), micro, Method::Get, "https://arcade.example");
        assert_eq!(at_root["routeTemplate"], "/api/arcade/chips/:tier");
        let below = bazaar(&terms(), micro, Method::Get, "https://host.example/arcade/");
        assert_eq!(below["routeTemplate"], "/arcade/api/arcade/chips/:tier");
        assert_eq!(
            micro.url("https://host.example/arcade/"),
            "https://host.example/arcade/api/arcade/chips/micro"
        );
        let default = bazaar(
            &terms(),
            ChipsResource::Default,
            Method::Post,
            "https://a.example",
        );
        assert!(default.get("routeTemplate").is_none());
    }

    #[test]
    fn lean_keeps_constraints_and_properties_of_any_name() {
        let schema = json!({
            "type": "object",
            "description": "prose",
            "properties": {
                "description": { "type": "string", "description": "prose", "maxLength": 3 },
            },
            "required": ["description"],
        });
        assert_eq!(
            Value::Object(lean(schema.as_object().unwrap())),
            json!({
                "type": "object",
                "properties": { "description": { "type": "string", "maxLength": 3 } },
                "required": ["description"],
            })
        );
    }
}
