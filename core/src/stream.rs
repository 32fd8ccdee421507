//! The HMAC-SHA256 byte stream (fairness v1, "Byte stream and floats").
//!
//! ```text
//! block(r) = HMAC-SHA256(key = server seed text, message = client_seed ":" nonce ":" r)
//! stream   = block(0) || block(1) || ...
//! u_i      = big-endian u32 of stream bytes [4i, 4i+4)
//! ```
//! The key is any byte string here, so Stake-style vectors (whose server seeds are not
//! 64-hex) can be checked with the same code; arcade rounds pass a validated [`ServerSeed`].
//!
//! [`ServerSeed`]: crate::ServerSeed

/// Bytes in one block of the stream.
pub const BLOCK_LEN: usize = 32;

/// The stream for one (key, client seed, nonce).
#[derive(Debug, Clone, Copy)]
pub struct ByteStream<'a> {
    key: &'a [u8],
    client_seed: &'a str,
    nonce: u64,
}

impl<'a> ByteStream<'a> {
    /// A stream keyed by `key` (the server seed's ASCII text) over `client_seed` and `nonce`.
    pub fn new(key: &'a [u8], client_seed: &'a str, nonce: u64) -> Self {
        Self {
            key,
            client_seed,
            nonce,
        }
    }

    /// `block(r)`: 32 bytes of HMAC-SHA256 output.
    pub fn block(&self, r: u64) -> [u8; BLOCK_LEN] {
        let (nonce, r) = (Decimal::of(self.nonce), Decimal::of(r));
        crate::digest::hmac_sha256(
            self.key,
            &[
                self.client_seed.as_bytes(),
                b":",
                nonce.as_bytes(),
                b":",
                r.as_bytes(),
            ],
        )
    }

    /// `u_i`: the i-th big-endian u32 of the stream (`float_i = u_i / 2^32`).
    pub fn u32_at(&self, i: u64) -> u32 {
        let per_block = (BLOCK_LEN / 4) as u64;
        let block = self.block(i / per_block);
        let at = usize::try_from(i % per_block).unwrap_or(0) * 4;
        u32::from_be_bytes([block[at], block[at + 1], block[at + 2], block[at + 3]])
    }

    /// The HMAC message of block `r` as text: `client_seed:nonce:r`.
    pub fn message(&self, r: u64) -> alloc::string::String {
        let (nonce, r) = (Decimal::of(self.nonce), Decimal::of(r));
        let mut text = alloc::string::String::with_capacity(
            self.client_seed.len() + nonce.as_str().len() + r.as_str().len() + 2,
        );
        for part in [self.client_seed, ":", nonce.as_str(), ":", r.as_str()] {
            text.push_str(part);
        }
        text
    }
}

/// The draws every arcade round uses: `u_0` decides the outcome, `u_1` the fractional chip.
/// Both come from `block(0)`, which is kept so verifiers can show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Draws {
    /// `block(0)`, the HMAC digest the two draws are read from.
    pub block0: [u8; BLOCK_LEN],
    /// Bytes 0..4 of `block(0)`.
    pub u0: u32,
    /// Bytes 4..8 of `block(0)`.
    pub u1: u32,
}

impl Draws {
    /// Reads `u_0` and `u_1` from the first block of `stream`.
    pub fn from_stream(stream: &ByteStream<'_>) -> Self {
        let block0 = stream.block(0);
        Self {
            block0,
            u0: u32::from_be_bytes([block0[0], block0[1], block0[2], block0[3]]),
            u1: u32::from_be_bytes([block0[4], block0[5], block0[6], block0[7]]),
        }
    }
}

/// A u64 written as decimal ASCII on the stack (the HMAC message needs no allocation).
pub(crate) struct Decimal {
    buf: [u8; 20],
    start: usize,
}

impl Decimal {
    // One copy of the digit loop for the message, the stream and the display texts.
    #[inline(never)]
    pub(crate) fn of(mut n: u64) -> Self {
        let mut buf = [0u8; 20];
        let mut start = buf.len();
        loop {
            start -= 1;
            buf[start] = b'0' + u8::try_from(n % 10).unwrap_or(0);
            n /= 10;
            if n == 0 {
                break;
            }
        }
        Self { buf, start }
    }

    pub(crate) fn as_bytes(&self) -> &[u8] {
        &self.buf[self.start..]
    }

    pub(crate) fn as_str(&self) -> &str {
        // Only ASCII digits are written.
        core::str::from_utf8(self.as_bytes()).unwrap_or_default()
    }
}

/// `hundredths / 100` with two decimals: `"1.98"`.
pub fn two_decimals(hundredths: u32) -> alloc::string::String {
    let whole = Decimal::of(u64::from(hundredths / 100));
    // 1dd: the two decimals with their zeros, after a leading 1.
    let cents = Decimal::of(u64::from(100 + hundredths % 100));
    let cents = cents.as_str().split_at_checked(1).map_or("", |(_, d)| d);
    let mut text = alloc::string::String::with_capacity(whole.as_str().len() + 3);
    for part in [whole.as_str(), ".", cents] {
        text.push_str(part);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decimal_writes_edges() {
        assert_eq!(Decimal::of(0).as_bytes(), b"0");
        assert_eq!(Decimal::of(10).as_bytes(), b"10");
        assert_eq!(Decimal::of(u64::MAX).as_bytes(), b"18446744073709551615");
    }

    #[test]
    fn block_is_hmac_of_the_message() {
        // python3 -c 'import hmac,hashlib;print(hmac.new(b"key",b"seed:7:1",hashlib.sha256).hexdigest())'
        let s = ByteStream::new(b"key", "seed", 7);
        assert_eq!(
            crate::hex::encode(&s.block(1)),
            "683a71e8dab702ff673b6d0975095dc99c73c0472be827bcd597993be200edba"
        );
        assert_eq!(s.message(1), "seed:7:1");
    }

    #[test]
    fn u32_at_walks_across_blocks() {
        let s = ByteStream::new(b"key", "seed", 0);
        let b0 = s.block(0);
        let b1 = s.block(1);
        assert_eq!(
            s.u32_at(0),
            u32::from_be_bytes([b0[0], b0[1], b0[2], b0[3]])
        );
        assert_eq!(
            s.u32_at(7),
            u32::from_be_bytes([b0[28], b0[29], b0[30], b0[31]])
        );
        assert_eq!(
            s.u32_at(8),
            u32::from_be_bytes([b1[0], b1[1], b1[2], b1[3]])
        );
        let d = Draws::from_stream(&s);
        assert_eq!((d.u0, d.u1), (s.u32_at(0), s.u32_at(1)));
    }
}
