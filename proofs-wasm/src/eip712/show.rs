//! Values as error messages show them: JSON text, long ones cut.

use serde_json::Value;

/// A string in double quotes for messages, as JSON writes it (long ones cut).
pub fn quote(text: &str) -> String {
    let cut: String = text.chars().take(80).collect();
    let quoted = Value::String(cut.clone()).to_string();
    if cut.len() < text.len() {
        format!("{quoted}…")
    } else {
        quoted
    }
}

/// A value as compact JSON for messages (long ones cut).
pub fn show(value: &Value) -> String {
    match value {
        Value::String(s) => quote(s),
        other => {
            let text = other.to_string();
            if text.chars().count() > 80 {
                format!("{}…", text.chars().take(80).collect::<String>())
            } else {
                text
            }
        }
    }
}
