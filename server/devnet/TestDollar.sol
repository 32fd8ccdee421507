// SPDX-License-Identifier: MIT OR Apache-2.0
pragma solidity 0.8.37;

/// @title Arcade Test Dollar
/// @notice A 6-decimal dollar token for the arcade's dev chain and tests: ERC-20, an EIP-712
/// domain read through `name()` and `version()`, and EIP-3009 `transferWithAuthorization` and
/// `cancelAuthorization` as USDC implements them, so x402 `exact` payments settle on it exactly
/// as on USDC, and a payer can attack a settlement with it exactly as on USDC. The deployer may
/// mint; nothing else is privileged. Its EIP-712 `name` and `version` are constructor arguments,
/// so a test chain can carry a token under the real USDC's domain (`USDC`, `2` on Base Sepolia).
contract TestDollar {
    string public constant symbol = "TUSD";
    uint8 public constant decimals = 6;

    bytes32 public constant TRANSFER_WITH_AUTHORIZATION_TYPEHASH =
        keccak256("TransferWithAuthorization(address from,address to,uint256 value,uint256 validAfter,uint256 validBefore,bytes32 nonce)");
    bytes32 public constant CANCEL_AUTHORIZATION_TYPEHASH =
        keccak256("CancelAuthorization(address authorizer,bytes32 nonce)");
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    // secp256k1 order / 2: signatures with a larger s are malleable copies and are refused.
    uint256 private constant HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;

    address public immutable minter;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;
    mapping(address => mapping(bytes32 => bool)) private usedAuthorizations;
    // After the mappings, so `balanceOf` stays the second slot (tests write it directly).
    string public name;
    string public version;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event AuthorizationUsed(address indexed authorizer, bytes32 indexed nonce);
    event AuthorizationCanceled(address indexed authorizer, bytes32 indexed nonce);

    constructor(string memory name_, string memory version_) {
        minter = msg.sender;
        name = name_;
        version = version_;
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(DOMAIN_TYPEHASH, keccak256(bytes(name)), keccak256(bytes(version)), block.chainid, address(this))
        );
    }

    function mint(address to, uint256 value) external {
        require(msg.sender == minter, "TestDollar: only the deployer mints");
        require(to != address(0), "TestDollar: mint to the zero address");
        totalSupply += value;
        balanceOf[to] += value;
        emit Transfer(address(0), to, value);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _transfer(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "TestDollar: transfer amount exceeds allowance");
        if (allowed != type(uint256).max) {
            allowance[from][msg.sender] = allowed - value;
        }
        _transfer(from, to, value);
        return true;
    }

    /// @notice EIP-3009: whether `authorizer` has used (or cancelled) `nonce`.
    function authorizationState(address authorizer, bytes32 nonce) external view returns (bool) {
        return usedAuthorizations[authorizer][nonce];
    }

    /// @notice EIP-3009 with the signature split into v, r, s.
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
    ) external {
        _transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, v, r, s);
    }

    /// @notice EIP-3009 with a 65-byte `r || s || v` signature.
    function transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes memory signature
    ) external {
        (uint8 v, bytes32 r, bytes32 s) = _split(signature);
        _transferWithAuthorization(from, to, value, validAfter, validBefore, nonce, v, r, s);
    }

    /// @notice EIP-3009: the authorizer gives up an unused authorization; it can then never be
    /// used. Anyone may submit the authorizer's signed cancellation.
    function cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) external {
        _cancelAuthorization(authorizer, nonce, v, r, s);
    }

    /// @notice EIP-3009 cancellation with a 65-byte `r || s || v` signature.
    function cancelAuthorization(address authorizer, bytes32 nonce, bytes memory signature) external {
        (uint8 v, bytes32 r, bytes32 s) = _split(signature);
        _cancelAuthorization(authorizer, nonce, v, r, s);
    }

    function _transferWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        uint8 v,
        bytes32 r,
        bytes32 s
    ) private {
        require(block.timestamp > validAfter, "TestDollar: authorization is not yet valid");
        require(block.timestamp < validBefore, "TestDollar: authorization is expired");
        require(!usedAuthorizations[from][nonce], "TestDollar: authorization is used or canceled");
        _requireSignedBy(
            from,
            keccak256(abi.encode(TRANSFER_WITH_AUTHORIZATION_TYPEHASH, from, to, value, validAfter, validBefore, nonce)),
            v,
            r,
            s
        );
        usedAuthorizations[from][nonce] = true;
        emit AuthorizationUsed(from, nonce);
        _transfer(from, to, value);
    }

    function _cancelAuthorization(address authorizer, bytes32 nonce, uint8 v, bytes32 r, bytes32 s) private {
        require(!usedAuthorizations[authorizer][nonce], "TestDollar: authorization is used or canceled");
        _requireSignedBy(authorizer, keccak256(abi.encode(CANCEL_AUTHORIZATION_TYPEHASH, authorizer, nonce)), v, r, s);
        usedAuthorizations[authorizer][nonce] = true;
        emit AuthorizationCanceled(authorizer, nonce);
    }

    /// The EIP-712 signature of `structHash` under this token's domain must be `signer`'s.
    function _requireSignedBy(address signer, bytes32 structHash, uint8 v, bytes32 r, bytes32 s) private view {
        bytes32 digest = keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
        require(uint256(s) <= HALF_ORDER, "TestDollar: invalid signature");
        require(v == 27 || v == 28, "TestDollar: invalid signature");
        address recovered = ecrecover(digest, v, r, s);
        require(recovered != address(0) && recovered == signer, "TestDollar: invalid signature");
    }

    function _split(bytes memory signature) private pure returns (uint8 v, bytes32 r, bytes32 s) {
        require(signature.length == 65, "TestDollar: signature length");
        assembly {
            r := mload(add(signature, 0x20))
            s := mload(add(signature, 0x40))
            v := byte(0, mload(add(signature, 0x60)))
        }
    }

    function _transfer(address from, address to, uint256 value) private {
        require(to != address(0), "TestDollar: transfer to the zero address");
        uint256 held = balanceOf[from];
        require(held >= value, "TestDollar: transfer amount exceeds balance");
        balanceOf[from] = held - value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
