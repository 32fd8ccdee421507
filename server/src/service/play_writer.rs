//! The writer that settles plays (group commit). A play request checks what needs no
//! database, queues its play here and waits; the writer takes every play waiting (up to
//! `MAX_BATCH`), settles them all in one transaction (`play_batch.rs`) and answers each only
//! after that transaction commits, so a play's durability is unchanged while the commit's cost
//! is shared. A batch that fails as a whole (a deadlock between instances, a balance that moved
//! under it) is retried whole before anyone is answered; one that keeps failing is settled in
//! halves, and those in halves, so one bad play never takes the others down.

use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, mpsc, oneshot};

use super::play::Play;
use super::play_batch::{Outcome, PlayBatches};
use crate::service::error::ServiceError;
use crate::store::wal_checkpoints::WalCheckpointer;
use crate::telemetry::metrics;

/// The most plays settled in one transaction.
const MAX_BATCH: usize = 256;
/// Plays waiting beyond this make their requests wait to queue.
const QUEUE_DEPTH: usize = 4096;
/// Whole-batch attempts before settling its plays in halves.
const ATTEMPTS: u32 = 4;
/// The least time between two checkpoints of the SQLite log: under load each copies the pages
/// of several batches at once.
const CHECKPOINT_GAP: Duration = Duration::from_millis(10);
/// How often an idle checkpointer looks whether the service is gone.
const IDLE_CHECK: Duration = Duration::from_secs(1);

/// A play checked against the rules that need no database, waiting for the writer.
#[derive(Debug)]
pub struct Queued {
    pub play: Play,
    pub potential_profit: u64,
}

struct Job {
    queued: Queued,
    answer: oneshot::Sender<Result<Outcome, ServiceError>>,
    at: Instant,
}

/// The writer is gone (the service is stopping).
#[derive(Debug, thiserror::Error)]
#[error("the play writer has stopped")]
struct WriterStopped;

/// The queue into the writer; the writer's end is taken once, when it starts.
pub struct PlayWriter {
    queue: mpsc::Sender<Job>,
    writer_end: Mutex<Option<mpsc::Receiver<Job>>>,
    /// Told after each batch commits: there is log to copy back (SQLite).
    committed: Arc<Notify>,
    /// What the writer settles with.
    batches: PlayBatches,
}

impl PlayWriter {
    pub fn new(batches: PlayBatches) -> Self {
        let (queue, writer_end) = mpsc::channel(QUEUE_DEPTH);
        Self {
            queue,
            writer_end: Mutex::new(Some(writer_end)),
            committed: Arc::default(),
            batches,
        }
    }

    /// Settles `queued` in the writer's next batch; answers once that batch has committed.
    pub(super) async fn settle_queued(&self, queued: Queued) -> Result<Outcome, ServiceError> {
        let (answer, answered) = oneshot::channel();
        self.queue
            .send(Job {
                queued,
                answer,
                at: Instant::now(),
            })
            .await
            .map_err(|_| ServiceError::internal(WriterStopped))?;
        answered
            .await
            .map_err(|_| ServiceError::internal(WriterStopped))?
    }
}

impl PlayBatches {
    /// Settles one batch: whole, retried, and else one play at a time; `committed` is told
    /// after a batch commits.
    async fn settle_jobs(&self, jobs: Vec<Job>, committed: &Notify) {
        let started = Instant::now();
        metrics::play_batch_taken(jobs.iter().map(|job| started - job.at));
        let (queued, answers): (Vec<Queued>, Vec<_>) =
            jobs.into_iter().map(|job| (job.queued, job.answer)).unzip();
        for attempt in 1..=ATTEMPTS {
            match self.settle_batch(&queued).await {
                Ok(outcomes) => {
                    metrics::play_batch_settled(started.elapsed());
                    tracing::debug!(plays = outcomes.len(), "play batch settled");
                    self.floor.changed();
                    committed.notify_one();
                    for (answer, outcome) in answers.into_iter().zip(outcomes) {
                        let _ = answer.send(Ok(outcome));
                    }
                    return;
                }
                Err(error) => {
                    tracing::warn!(%error, attempt, plays = queued.len(), "play batch retried");
                    tokio::time::sleep(Duration::from_millis(u64::from(attempt))).await;
                }
            }
        }
        let outcomes = self.settle_halves(&queued, committed).await;
        for (answer, outcome) in answers.into_iter().zip(outcomes) {
            let _ = answer.send(outcome);
        }
        metrics::play_batch_settled(started.elapsed());
    }

    /// Settles each half of `queued` whole, else in halves of its own, and so on down to single
    /// plays: a play whose statement fails costs its own answer and about `2·log2(n)`
    /// transactions of the others' time, not one transaction per play.
    async fn settle_halves(
        &self,
        queued: &[Queued],
        committed: &Notify,
    ) -> Vec<Result<Outcome, ServiceError>> {
        let (first, second) = queued.split_at(queued.len() / 2);
        let mut outcomes = Vec::with_capacity(queued.len());
        for half in [first, second].into_iter().filter(|half| !half.is_empty()) {
            match self.settle_batch(half).await {
                Ok(settled) => {
                    self.floor.changed();
                    committed.notify_one();
                    outcomes.extend(settled.into_iter().map(Ok));
                }
                Err(error) if half.len() == 1 => outcomes.push(Err(error)),
                // Not any play's doing: every play of the half hears it, none is tried alone.
                Err(ServiceError::DatabaseUnavailable(cause)) => outcomes.extend(
                    half.iter()
                        .map(|_| Err(ServiceError::DatabaseUnavailable(cause.clone()))),
                ),
                Err(_) => outcomes.extend(Box::pin(self.settle_halves(half, committed)).await),
            }
        }
        outcomes
    }
}

/// Starts the writers on a thread of their own; they stop when the service (the last `Arc` of
/// `writer`) is dropped. SQLite has one connection, so one writer; on PostgreSQL two, so one
/// batch's round trips overlap the next batch's work (their wallets locked in address order, as between
/// instances). The thread runs its own single-threaded runtime: a batch awaits a dozen database
/// round trips, and on the server's runtime each wake-up would queue behind every request task
/// in flight, so a loaded server would stretch every batch (and every play waiting on it).
pub fn spawn_play_writers(
    writer: &Arc<PlayWriter>,
    checkpointer: Option<WalCheckpointer>,
) -> Option<()> {
    let writer_end = writer
        .writer_end
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()?;
    let writers = match writer.batches.db.get_database_backend() {
        sea_orm::DbBackend::Postgres => 2,
        _ => 1,
    };
    let committed = writer.committed.clone();
    let batches = writer.batches.clone();
    let service = Arc::downgrade(writer);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .inspect_err(|error| tracing::error!(%error, "the play writers' runtime did not start"))
        .ok()?;
    let writer_end = Arc::new(tokio::sync::Mutex::new(writer_end));
    std::thread::Builder::new()
        .name("play-writer".into())
        .spawn(move || {
            runtime.block_on(async move {
                let mut running = tokio::task::JoinSet::new();
                for _ in 0..writers {
                    let writer = Writer {
                        service: service.clone(),
                        batches: batches.clone(),
                        committed: committed.clone(),
                    };
                    running.spawn(write_batches(writer, writer_end.clone()));
                }
                if let Some(checkpointer) = checkpointer {
                    running.spawn(copy_log_back(service, committed, checkpointer));
                }
                running.join_all().await;
            });
        })
        .inspect_err(|error| tracing::error!(%error, "the play writers' thread did not start"))
        .ok()?;
    Some(())
}

/// What one writer settles with, and how it knows the service is gone.
struct Writer {
    service: Weak<PlayWriter>,
    batches: PlayBatches,
    committed: Arc<Notify>,
}

/// One writer: batch after batch until the queue closes or the service is gone.
async fn write_batches(writer: Writer, writer_end: Arc<tokio::sync::Mutex<mpsc::Receiver<Job>>>) {
    while let Some(jobs) = next_batch(&writer_end).await {
        if writer.service.strong_count() == 0 {
            return;
        }
        writer.batches.settle_jobs(jobs, &writer.committed).await;
    }
}

/// Checkpoints the SQLite log after batches commit, at most once per `CHECKPOINT_GAP`, while
/// the service lives.
async fn copy_log_back(
    service: Weak<PlayWriter>,
    committed: Arc<Notify>,
    mut checkpointer: WalCheckpointer,
) {
    while service.strong_count() > 0 {
        if tokio::time::timeout(IDLE_CHECK, committed.notified())
            .await
            .is_err()
        {
            continue;
        }
        if let Err(error) = checkpointer.checkpoint().await {
            tracing::warn!(%error, "checkpointing the SQLite log");
        }
        tokio::time::sleep(CHECKPOINT_GAP).await;
    }
}

/// Every play waiting (at least one, at most `MAX_BATCH`); `None` once the queue is closed.
async fn next_batch(writer_end: &tokio::sync::Mutex<mpsc::Receiver<Job>>) -> Option<Vec<Job>> {
    let mut writer_end = writer_end.lock().await;
    let mut jobs = vec![writer_end.recv().await?];
    while jobs.len() < MAX_BATCH {
        match writer_end.try_recv() {
            Ok(job) => jobs.push(job),
            Err(_) => break,
        }
    }
    Some(jobs)
}
