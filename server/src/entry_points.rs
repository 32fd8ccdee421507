//! Where an agent with only the base URL starts: each entry point's name and path, once. The
//! manifest (`/.well-known/x402`) lists them as `links`; the page at `/` and `/llms.txt` link
//! each (a test holds both to this list).

/// `(name, path)` of each entry point.
pub const ENTRY_POINTS: [(&str, &str); 10] = [
    ("llms_txt", "/llms.txt"),
    ("rules", "/rules.md"),
    ("proofs", "/docs/proofs.md"),
    ("vectors", "/vectors/fairness-v1.json"),
    ("openapi", "/api/openapi.json"),
    ("api_docs", "/api/docs"),
    ("mcp", "/api/mcp"),
    ("mcp_server_json", "/server.json"),
    ("x402_manifest", "/.well-known/x402"),
    ("verifier", "/"),
];
