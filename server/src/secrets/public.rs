//! Values anyone knows, which a deployment must never run with: the private keys of anvil's and
//! hardhat's default accounts (one mnemonic, printed by both tools at every start), and the
//! secrets earlier versions of the service built in.

use alloy::primitives::{Address, address};
use alloy::signers::local::PrivateKeySigner;

/// The addresses of the 20 accounts of anvil's and hardhat's default mnemonic (`test test …
/// junk`, paths `m/44'/60'/0'/0/0` to `/19`; anvil shows the first ten): anyone holds their
/// keys, and spends whatever a public chain gives them.
pub const WELL_KNOWN_TEST_ADDRESSES: [Address; 20] = [
    address!("0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"),
    address!("0x70997970C51812dc3A010C7d01b50e0d17dc79C8"),
    address!("0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC"),
    address!("0x90F79bf6EB2c4f870365E785982E1f101E93b906"),
    address!("0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65"),
    address!("0x9965507D1a55bcC2695C58ba16FB37d819B0A4dc"),
    address!("0x976EA74026E726554dB657fA54763abd0C3a0aa9"),
    address!("0x14dC79964da2C08b23698B3D3cc7Ca32193d9955"),
    address!("0x23618e81E3f5cdF7f54C3d65f7FBc0aBf5B21E8f"),
    address!("0xa0Ee7A142d267C1f36714E4a8F75612F20a79720"),
    address!("0xBcd4042DE499D14e55001CcbB24a551F3b954096"),
    address!("0x71bE63f3384f5fb98995898A86B02Fb2426c5788"),
    address!("0xFABB0ac9d68B0B445fB7357272Ff202C5651694a"),
    address!("0x1CBd3b2770909D4e10f157cABC84C7264073C9Ec"),
    address!("0xdF3e18d64BC6A983f673Ab319CCaE4f1a57C7097"),
    address!("0xcd3B766CCDd6AE721141F452C550Ca635964ce71"),
    address!("0x2546BcD3c84621e976D8185a91A922aE77ECEc30"),
    address!("0xbDA5747bFD65F08deb54cb465eB87D40e51B197E"),
    address!("0xdD2FD4581271e230360230F9337D5c0430Bf44C0"),
    address!("0x8626f6940E2eb28930eFb4CeF49B2d1F2C9C1199"),
];

/// Secrets earlier versions used when none was set (`seeds.secret`, `auth.secret`): public,
/// since they are in the source.
const FORMER_BUILT_INS: [&str; 2] = ["arcade-seed-batches", "arcade-first-generation-nonces"];

/// The fewest characters a configured secret may have (`openssl rand -hex 32` gives 64).
pub const MIN_SECRET_CHARS: usize = 32;

/// Why a private key (0x + 64 hex) is no secret: `None` if it is not a well-known one.
pub fn known_key(key: &str) -> Option<String> {
    let signer: PrivateKeySigner = key.trim().parse().ok()?;
    let address = signer.address();
    WELL_KNOWN_TEST_ADDRESSES.contains(&address).then(|| {
        format!("it is the key of {address}, one of anvil's and hardhat's public test accounts")
    })
}

/// Why a configured secret (an HMAC key) is no secret: `None` if it may be one.
pub fn weak_secret(secret: &str) -> Option<String> {
    if FORMER_BUILT_INS.contains(&secret) {
        return Some("it is a value earlier versions built in, public in their source".into());
    }
    let length = secret.chars().count();
    (length < MIN_SECRET_CHARS)
        .then(|| format!("it has {length} characters; a secret needs at least {MIN_SECRET_CHARS}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_test_mnemonic_keys_are_known_and_a_fresh_key_is_not() {
        // hardhat's account 19 and anvil's account 9 (the former built-in signing key).
        for key in [
            "0xdf57089febbacf7ba0bc227dafbffa9fc08a93fdc68e1e42411a14efcf23656e",
            "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
        ] {
            assert!(known_key(key).is_some(), "{key}");
        }
        let fresh = alloy::hex::encode_prefixed(PrivateKeySigner::random().to_bytes());
        assert_eq!(known_key(&fresh), None);
    }

    #[test]
    fn former_built_ins_and_short_secrets_are_weak() {
        assert!(weak_secret("arcade-seed-batches").is_some());
        assert!(weak_secret("arcade-first-generation-nonces").is_some());
        assert!(weak_secret("hunter2").is_some());
        assert_eq!(weak_secret(&"ab".repeat(16)), None);
    }
}
