//! Typed core errors become real JS `Error`s carrying the core's stable `code`.

use wasm_bindgen::JsValue;

/// A JS `Error` with `message` and a `code` property (e.g. `"invalid_server_seed"`).
pub fn js_error(code: &str, message: &str) -> JsValue {
    let error = js_sys::Error::new(message);
    // Setting a property on a fresh Error object cannot fail.
    let _ = js_sys::Reflect::set(&error, &JsValue::from_str("code"), &JsValue::from_str(code));
    error.into()
}

/// Converts any core error (which all have `code()` and `Display`).
pub trait IntoJsError {
    /// The JS `Error` for this error.
    fn into_js(self) -> JsValue;
}

macro_rules! into_js_error {
    ($($t:ty),*) => {$(
        impl IntoJsError for $t {
            fn into_js(self) -> JsValue {
                js_error(self.code(), &self.to_string())
            }
        }
    )*};
}

into_js_error!(
    arcade_core::SeedError,
    arcade_core::CallError,
    arcade_core::ReceiptError
);

/// A value that is not of the expected shape (a missing field, a wrong type, a number that is
/// not a safe integer).
pub fn shape_error(error: &serde_wasm_bindgen::Error) -> JsValue {
    js_error("invalid_input", &error.to_string())
}
