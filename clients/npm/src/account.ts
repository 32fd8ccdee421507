// The signer a client plays as: a viem account (`privateKeyToAccount`, a wallet's local
// account) or anything with the same three members.

/** A 0x-prefixed hex string. */
export type Hex = `0x${string}`;

/** EIP-712 typed data, as viem signs it. */
export interface TypedDataArgs {
  domain: Record<string, unknown>;
  types: Record<string, unknown>;
  primaryType: string;
  message: Record<string, unknown>;
}

/** What the client needs of an account: its address, personal_sign, and EIP-712 signing. */
export interface ArcadeAccount {
  readonly address: Hex;
  signMessage(args: { message: string }): Promise<Hex>;
  signTypedData(args: TypedDataArgs): Promise<Hex>;
}
