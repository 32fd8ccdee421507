//! Proof of address control: the statement to sign (an EIP-4361 message, `crate::identity`),
//! verifying signatures against the address's current generation, and rotating to a new one,
//! which revokes every signature of the older statements on every instance (the generation
//! lives in the database) and expires the address's open rounds. A check reads the current
//! generation and the few before it, never the whole history. A commit's check may read them
//! as this instance last saw them (`known_generations.rs`): the transaction that opens its
//! round holds the generation to the database's current one (`rounds/batch.rs`).

mod known_generations;

use std::sync::Arc;

use alloy::primitives::Address;
use salvo::oapi::ToSchema;
use serde::{Deserialize, Serialize};

use super::now_ms;
use crate::address;
use crate::identity::{AuthStatement, Generation, Identity, OLDER_CHECKED, SignatureError};
use crate::rate_limits::{Caller, Operation, RateLimits};
use crate::service::error::{ServiceError, wraps_service_error};
use crate::siwx::{Binding, Declaration, Window};
use crate::store;
use crate::store::Db;
use crate::store::identities::NextGeneration;
use known_generations::{Generations, KnownGenerations};

/// Proof of address control as a request carries it: the auth statement's signature (in the
/// body) and the `SIGN-IN-WITH-X` header. Each one given must hold.
#[derive(Debug, Clone, Copy, Default)]
pub struct AddressProof<'a> {
    pub signature: Option<&'a str>,
    pub siwx: Option<&'a str>,
}

impl<'a> AddressProof<'a> {
    /// The statement signature alone (MCP, the house agents, free chips).
    pub fn signature(signature: Option<&'a str>) -> Self {
        Self {
            signature,
            siwx: None,
        }
    }
}

#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct Rotated {
    /// The new statement to sign from now on; signatures of every older one are refused (401
    /// `signature_revoked` for the two before it, 403 `signature_mismatch` for older ones).
    pub auth_statement: AuthStatement,
    /// Open rounds of the address that expired with the old statement.
    pub expired_rounds: u64,
}

/// Why a signature check or a rotation did not pass.
#[derive(Debug, thiserror::Error)]
pub enum AuthError {
    #[error(transparent)]
    Signature(#[from] SignatureError),
    #[error(transparent)]
    Service(#[from] ServiceError),
}

impl crate::refusal::Refusal for AuthError {
    fn kind(&self) -> crate::refusal::ErrorKind {
        match self {
            Self::Signature(refused) => refused.kind(),
            Self::Service(failed) => failed.kind(),
        }
    }

    fn retry_after_s(&self) -> Option<u64> {
        match self {
            Self::Signature(_) => None,
            Self::Service(failed) => failed.retry_after_s(),
        }
    }
}

wraps_service_error!(AuthError);

/// Proof of address control: the statements and their generations.
#[derive(Clone)]
pub struct Auth {
    db: Db,
    identity: Arc<Identity>,
    rate_limits: Arc<RateLimits>,
    /// Each address's generations as this instance last read them (commits only).
    known: Arc<KnownGenerations>,
}

impl Auth {
    pub fn new(db: Db, identity: Arc<Identity>, rate_limits: Arc<RateLimits>) -> Self {
        Self {
            db,
            identity,
            rate_limits,
            known: Arc::default(),
        }
    }

    /// The deployment's statement maker (its domain, chain and first generations).
    pub fn identity(&self) -> &Identity {
        &self.identity
    }

    /// The address's current statement. Reading it writes nothing.
    pub async fn statement(&self, address: &Address) -> Result<AuthStatement, AuthError> {
        let (current, _) = self.generations(address).await?;
        Ok(self.identity.answer(address, &current))
    }

    /// Checks that `signature` signs the address's current statement.
    pub async fn verify_signature(
        &self,
        address: &Address,
        signature: Option<&str>,
    ) -> Result<(), AuthError> {
        self.verify_proof(address, AddressProof::signature(signature))
            .await
    }

    /// Checks each proof the request carries (at least one): the statement signature and the
    /// `SIGN-IN-WITH-X` header. When both are given, both must hold.
    pub async fn verify_proof(
        &self,
        address: &Address,
        proof: AddressProof<'_>,
    ) -> Result<(), AuthError> {
        self.verify_proof_in(address, proof, Window::At(now_ms()))
            .await
    }

    /// As [`Self::verify_proof`], with a sign-in-with-x proof's window checked at `window`
    /// (lifted to answer a repeat of a call already settled).
    pub async fn verify_proof_in(
        &self,
        address: &Address,
        proof: AddressProof<'_>,
        window: Window,
    ) -> Result<(), AuthError> {
        if proof.signature.is_none() && proof.siwx.is_none() {
            return Err(SignatureError::Required.into());
        }
        let (current, older) = self.generations(address).await?;
        self.check(address, proof, &current, &older, window)
    }

    /// As [`Self::verify_proof`], against the generations this instance last read (read once
    /// if it has none, or again if the proof does not hold against them): the current
    /// generation it holds for. Only for a check that a transaction confirms is still the current generation
    /// when it acts (a commit: `rounds/batch.rs`); [`Self::forget`] the address when it is not.
    pub async fn verify_proof_as_known(
        &self,
        address: &Address,
        proof: AddressProof<'_>,
    ) -> Result<Generation, AuthError> {
        if proof.signature.is_none() && proof.siwx.is_none() {
            return Err(SignatureError::Required.into());
        }
        let window = Window::At(now_ms());
        let mut refused = None;
        if let Some(known) = self.known.get(address) {
            match self.check(address, proof, &known.current, &known.older, window) {
                Ok(()) => return Ok(known.current.clone()),
                Err(error) => refused = Some((known, error)),
            }
        }
        let (current, older) = self.generations(address).await?;
        let fresh = Generations { current, older };
        if let Some((known, error)) = refused {
            // The same generations again: the same answer, without checking twice.
            if known.current == fresh.current && known.older == fresh.older {
                return Err(error);
            }
        }
        // Kept whether the proof holds or not: they are the database's, not the caller's.
        let checked = self.check(address, proof, &fresh.current, &fresh.older, window);
        let proven = fresh.current.clone();
        self.known.put(*address, fresh);
        checked.map(|()| proven)
    }

    /// Drops what this instance knew of the address's generations (it rotated).
    pub fn forget(&self, address: &Address) {
        self.known.forget(address);
    }

    /// A sign-in-with-x challenge for the address, bound to its current statement generation.
    pub async fn siwx_challenge(&self, address: &Address) -> Result<Declaration, AuthError> {
        let (current, _) = self.generations(address).await?;
        let siwx = self.identity.siwx();
        let resource = siwx.uri().to_owned();
        Ok(siwx.declaration(Binding::Address(address, &current), now_ms(), resource))
    }

    fn check(
        &self,
        address: &Address,
        proof: AddressProof<'_>,
        current: &Generation,
        older: &[Generation],
        window: Window,
    ) -> Result<(), AuthError> {
        if let Some(signature) = proof.signature {
            self.identity
                .verify(address, Some(signature), current, older)?;
        }
        if let Some(header) = proof.siwx {
            self.identity
                .siwx()
                .verify(header, address, current, older, window)?;
        }
        Ok(())
    }

    /// Starts the address's next generation, proven with its current statement or a
    /// sign-in-with-x proof of its current generation.
    pub async fn rotate(
        &self,
        address: &Address,
        proof: AddressProof<'_>,
        caller: Caller,
    ) -> Result<Rotated, AuthError> {
        self.rate_limits.operation(caller, Operation::Rotate)?;
        if proof.signature.is_none() && proof.siwx.is_none() {
            return Err(SignatureError::Required.into());
        }
        let (current, older) = self.generations(address).await?;
        self.check(address, proof, &current, &older, Window::At(now_ms()))?;
        let next = Generation {
            number: current.number + 1,
            nonce: alloy::hex::encode(super::randomness::random_bytes::<12>()?),
            issued_at: now_ms(),
        };
        let key = address::key(address);
        let rotation = NextGeneration {
            address: &key,
            generation: next.number,
            nonce: &next.nonce,
            issued_at: next.issued_at,
            // Older ones are never read again (`generations`).
            keep_older: i64::try_from(OLDER_CHECKED).unwrap_or(i64::MAX),
        };
        // A concurrent rotation started this generation first: the signature is of an older one.
        let rotated = store::identities::rotate(&self.db, rotation).await;
        self.known.forget(address);
        let expired_rounds =
            rotated?.ok_or_else(|| SignatureError::Revoked(address::display(address)))?;
        Ok(Rotated {
            auth_statement: self.identity.answer(address, &next),
            expired_rounds,
        })
    }

    /// The address's current generation and the [`OLDER_CHECKED`] before it, newest first:
    /// a bounded read however often the address rotated.
    async fn generations(
        &self,
        address: &Address,
    ) -> Result<(Generation, Vec<Generation>), AuthError> {
        let wanted = OLDER_CHECKED + 1;
        let stored = store::identities::newest_generations(
            &self.db,
            &address::key(address),
            u64::try_from(wanted).unwrap_or(u64::MAX),
        )
        .await?;
        let mut recent: Vec<Generation> = stored
            .into_iter()
            .map(|row| Generation {
                number: row.generation,
                nonce: row.nonce,
                issued_at: row.issued_at,
            })
            .collect();
        if recent.len() < wanted {
            // The derived first generation is among the newest.
            recent.push(self.identity.first_generation(address));
        }
        let current = recent.remove(0);
        Ok((current, recent))
    }
}
