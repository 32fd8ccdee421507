//! A thread that lives as long as the service and signs the hashes handed to it, so a batch of
//! plays signs its receipts on two cores without starting a thread per batch (a fresh thread's
//! start, the kernel zeroing its pages, cost as much as it took over on a batch of a dozen).
//! Started at the first hand-off; it stops once its owner is dropped.

use std::sync::OnceLock;
use std::sync::mpsc;

use alloy::primitives::B256;

use super::{HouseSigner, SigningError};

type Signatures = Result<Vec<String>, SigningError>;

struct Job {
    hashes: Vec<B256>,
    reply: mpsc::SyncSender<Signatures>,
}

#[derive(Debug)]
pub struct SigningThread {
    signer: HouseSigner,
    /// The thread's queue; `None` if the thread could not be started.
    jobs: OnceLock<Option<mpsc::Sender<Job>>>,
}

/// Hashes handed off: signed on the thread, or here if it is not to be had.
pub enum Handed<'a> {
    Away(mpsc::Receiver<Signatures>),
    Here(&'a HouseSigner, Vec<B256>),
}

impl SigningThread {
    pub fn new(signer: HouseSigner) -> Self {
        Self {
            signer,
            jobs: OnceLock::new(),
        }
    }

    /// Starts signing `hashes` on the thread; `Handed::signatures` waits for them.
    pub fn hand(&self, hashes: Vec<B256>) -> Handed<'_> {
        let Some(jobs) = self.jobs.get_or_init(|| self.start()) else {
            return Handed::Here(&self.signer, hashes);
        };
        let (reply, replied) = mpsc::sync_channel(1);
        match jobs.send(Job { hashes, reply }) {
            Ok(()) => Handed::Away(replied),
            Err(mpsc::SendError(job)) => Handed::Here(&self.signer, job.hashes),
        }
    }

    fn start(&self) -> Option<mpsc::Sender<Job>> {
        let (jobs, queue) = mpsc::channel::<Job>();
        let signer = self.signer.clone();
        std::thread::Builder::new()
            .name("receipt-signer".into())
            .spawn(move || {
                while let Ok(job) = queue.recv() {
                    let _ = job.reply.send(sign_all(&signer, &job.hashes));
                }
            })
            .inspect_err(|error| tracing::warn!(%error, "the receipt-signing thread did not start"))
            .ok()?;
        Some(jobs)
    }
}

impl Handed<'_> {
    /// The signatures, in the order of the hashes handed.
    pub fn signatures(self) -> Signatures {
        match self {
            Handed::Away(replied) => replied
                .recv()
                .map_err(|_| SigningError::Signing("the signing thread stopped".into()))?,
            Handed::Here(signer, hashes) => sign_all(signer, &hashes),
        }
    }
}

/// Each hash's signature, in order.
pub fn sign_all(signer: &HouseSigner, hashes: &[B256]) -> Signatures {
    hashes.iter().map(|hash| signer.sign_hash(hash)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn signer() -> HouseSigner {
        HouseSigner::new(
            "0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6",
            31337,
        )
        .unwrap()
    }

    #[test]
    fn hashes_signed_on_the_thread_are_those_signed_here_in_order() {
        let thread = SigningThread::new(signer());
        let hashes: Vec<B256> = (0u8..5).map(|n| B256::repeat_byte(n + 1)).collect();
        let expected = sign_all(&signer(), &hashes).unwrap();
        for _ in 0..3 {
            let handed = thread.hand(hashes.clone());
            assert!(matches!(handed, Handed::Away(_)));
            assert_eq!(handed.signatures().unwrap(), expected);
        }
        assert!(thread.hand(Vec::new()).signatures().unwrap().is_empty());
    }
}
