//! One error type with a stable `code`; across the wasm-bindgen boundary it becomes a real JS
//! `Error` carrying that `code` (as the fairness module's errors do).

use core::fmt;

/// What went wrong, by kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Code {
    /// The typed data cannot be hashed: a wrong shape, an unknown type, a value its type refuses.
    InvalidTypedData,
    /// The signature is not 65 bytes `r‖s‖v`, or no key recovers from it.
    InvalidSignature,
    /// An argument is not JSON or not of the documented shape.
    InvalidInput,
}

impl Code {
    /// The stable string callers match on.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::InvalidTypedData => "invalid_typed_data",
            Self::InvalidSignature => "invalid_signature",
            Self::InvalidInput => "invalid_input",
        }
    }
}

/// An error with its kind and a readable message.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Error {
    /// Its kind.
    pub code: Code,
    /// What a person reads.
    pub message: String,
}

impl Error {
    /// A typed-data error.
    pub fn typed_data(message: impl Into<String>) -> Self {
        Self {
            code: Code::InvalidTypedData,
            message: message.into(),
        }
    }

    /// A signature error.
    pub fn signature(message: impl Into<String>) -> Self {
        Self {
            code: Code::InvalidSignature,
            message: message.into(),
        }
    }

    /// An input error.
    pub fn input(message: impl Into<String>) -> Self {
        Self {
            code: Code::InvalidInput,
            message: message.into(),
        }
    }

    /// The same message under another code.
    #[must_use]
    pub fn with_code(mut self, code: Code) -> Self {
        self.code = code;
        self
    }

    /// Prefixes the message with where it happened (`"message.wager: "`).
    #[must_use]
    pub fn at(mut self, place: &str) -> Self {
        self.message = format!("{place}: {}", self.message);
        self
    }

    /// The JS `Error` with `message` and a `code` property.
    #[cfg(feature = "js")]
    pub fn into_js(self) -> wasm_bindgen::JsValue {
        let error = js_sys::Error::new(&self.message);
        // Setting a property on a fresh Error object cannot fail.
        let _ = js_sys::Reflect::set(
            &error,
            &wasm_bindgen::JsValue::from_str("code"),
            &wasm_bindgen::JsValue::from_str(self.code.as_str()),
        );
        error.into()
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", self.message, self.code.as_str())
    }
}

impl std::error::Error for Error {}

/// Parses a JSON argument, or an `invalid_input` error naming it.
pub fn parse_json(text: &str, what: &str) -> Result<serde_json::Value, Error> {
    serde_json::from_str(text).map_err(|e| Error::input(format!("{what} is not JSON: {e}")))
}
