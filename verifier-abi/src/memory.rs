//! The module's memory as the host sees it: blocks it asks for and gives back, texts it wrote
//! into them, and answers it reads out of them.

use std::alloc::{Layout, alloc as allocate, dealloc as deallocate};

/// A block of `len` bytes for the host to write an argument into (null for `len` 0).
#[unsafe(no_mangle)]
pub extern "C" fn alloc(len: usize) -> *mut u8 {
    match Layout::array::<u8>(len) {
        Ok(layout) if len > 0 => {
            // SAFETY: the layout has a non-zero size.
            unsafe { allocate(layout) }
        }
        _ => core::ptr::null_mut(),
    }
}

/// Gives back a block from [`alloc`], or an answer, with the length it was handed out with.
///
/// # Safety
/// `ptr` must come from `alloc(len)` or be an answer of `len` bytes, not freed before.
#[unsafe(no_mangle)]
pub unsafe extern "C" fn dealloc(ptr: *mut u8, len: usize) {
    if ptr.is_null() || len == 0 {
        return;
    }
    if let Ok(layout) = Layout::array::<u8>(len) {
        // SAFETY: the caller gives back a block this allocator handed out with this size.
        unsafe { deallocate(ptr, layout) }
    }
}

/// The text the host wrote at `(ptr, len)`, or why it is not one.
pub(crate) fn text<'a>(ptr: *const u8, len: usize) -> Result<&'a str, crate::Failure> {
    if ptr.is_null() || len == 0 {
        return Ok("");
    }
    // SAFETY: the host wrote `len` bytes at `ptr`, a block from `alloc` it keeps until the call
    // returns.
    let bytes = unsafe { core::slice::from_raw_parts(ptr, len) };
    core::str::from_utf8(bytes).map_err(|e| crate::Failure::input(format_args!("not UTF-8: {e}")))
}

/// An answer handed to the host: `pointer << 32 | length` of a block it frees with `dealloc`.
pub(crate) fn hand_over(answer: String) -> u64 {
    let bytes = answer.into_bytes().into_boxed_slice();
    let len = bytes.len();
    let ptr = Box::into_raw(bytes).cast::<u8>();
    // wasm32 pointers and lengths are 32 bits.
    (ptr as usize as u64) << 32 | len as u64
}
