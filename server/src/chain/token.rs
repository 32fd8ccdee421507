//! The dollar token's interface: what the arcade calls on USDC or on its own test token
//! (`server/devnet/TestDollar.sol`, whose compiled artefact is embedded for the dev chain).

#![allow(clippy::too_many_arguments)] // generated bindings of EIP-3009's nine-argument call

use alloy::sol;

sol! {
    /// ERC-20 plus EIP-3009, as USDC and the test dollar implement them.
    #[sol(rpc)]
    interface DollarToken {
        function name() external view returns (string);
        function version() external view returns (string);
        function decimals() external view returns (uint8);
        function balanceOf(address owner) external view returns (uint256);
        function authorizationState(address authorizer, bytes32 nonce) external view returns (bool);
        function transfer(address to, uint256 value) external returns (bool);
        function transferWithAuthorization(
            address from,
            address to,
            uint256 value,
            uint256 validAfter,
            uint256 validBefore,
            bytes32 nonce,
            uint8 v,
            bytes32 r,
            bytes32 s
        ) external;
        /// EIP-3009: the authorizer gives up an unused authorization (USDC has it too).
        function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external;
        /// Test dollar only: the deployer mints.
        function mint(address to, uint256 value) external;

        event Transfer(address indexed from, address indexed to, uint256 value);
        event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
        event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);
    }
}

sol! {
    /// The EIP-3009 authorization a payer signs (EIP-712 typed data).
    #[derive(Debug, PartialEq, Eq)]
    struct TransferWithAuthorization {
        address from;
        address to;
        uint256 value;
        uint256 validAfter;
        uint256 validBefore;
        bytes32 nonce;
    }

    /// The EIP-3009 cancellation an authorizer signs (EIP-712 typed data).
    #[derive(Debug, PartialEq, Eq)]
    struct CancelAuthorization {
        address authorizer;
        bytes32 nonce;
    }
}

/// The compiled test dollar (`solc` output committed beside its source; CI recompiles and
/// compares).
pub const TEST_DOLLAR_ARTEFACT: &str = include_str!("../../devnet/TestDollar.json");

/// The test dollar's creation bytecode, from the artefact.
pub fn test_dollar_bytecode() -> Vec<u8> {
    let artefact: serde_json::Value =
        serde_json::from_str(TEST_DOLLAR_ARTEFACT).expect("the committed artefact is JSON");
    let hex = artefact["bytecode"]
        .as_str()
        .expect("the artefact has a bytecode string");
    alloy::hex::decode(hex).expect("the artefact's bytecode is hex")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloy::primitives::keccak256;
    use alloy::sol_types::SolStruct;

    #[test]
    fn the_authorization_type_is_eip_3009s() {
        let auth = TransferWithAuthorization {
            from: Default::default(),
            to: Default::default(),
            value: Default::default(),
            validAfter: Default::default(),
            validBefore: Default::default(),
            nonce: Default::default(),
        };
        assert_eq!(
            auth.eip712_type_hash(),
            keccak256(
                "TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)"
            )
        );
    }

    #[test]
    fn the_embedded_artefact_has_creation_code() {
        assert!(test_dollar_bytecode().len() > 1000);
    }
}
