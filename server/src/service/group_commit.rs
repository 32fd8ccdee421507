//! Group commit: a request checks what needs no database, queues its item here and waits; a
//! writer takes every item waiting (up to `MAX_BATCH`), settles them all in one transaction and
//! answers each only after that transaction commits, so an item's durability is unchanged while
//! the commit's cost is shared. A batch that fails as a whole (a deadlock between instances, a
//! row that moved under it) is retried whole before anyone is answered; one that keeps failing
//! is settled in halves, and those in halves, so one bad item never takes the others down.
//! Plays (`plays/batch.rs`) and commits (`rounds/batch.rs`) each have a writer.

use std::future::Future;
use std::sync::{Arc, Mutex, Weak};
use std::time::{Duration, Instant};

use tokio::sync::{Notify, mpsc, oneshot};

use crate::service::error::ServiceError;
use crate::store::wal_checkpoints::WalCheckpointer;

/// The most items settled in one transaction.
const MAX_BATCH: usize = 256;
/// Items waiting beyond this make their requests wait to queue.
const QUEUE_DEPTH: usize = 4096;
/// Whole-batch attempts before settling its items in halves.
const ATTEMPTS: u32 = 4;
/// The least time between two checkpoints of the SQLite log: under load each copies the pages
/// of several batches at once.
const CHECKPOINT_GAP: Duration = Duration::from_millis(10);
/// How often an idle checkpointer looks whether the service is gone.
const IDLE_CHECK: Duration = Duration::from_secs(1);

/// What one kind of writer settles: a batch of items in one transaction.
pub trait Batches: Clone + Send + Sync + 'static {
    type Item: Send + Sync + 'static;
    type Outcome: Send + 'static;
    /// The writer's name, in its thread's name and its logs.
    const NAME: &'static str;

    /// Settles `items` in one transaction: one outcome per item, in order, once it committed.
    fn settle(
        &self,
        items: &[Self::Item],
    ) -> impl Future<Output = Result<Vec<Self::Outcome>, ServiceError>> + Send;

    /// After a batch committed.
    fn committed(&self) {}

    /// A batch was taken whose items had waited `waits` in the queue.
    fn taken(&self, _waits: &mut dyn Iterator<Item = Duration>) {}

    /// A batch was settled (or given up on) in `elapsed`, its retries included.
    fn finished(&self, _elapsed: Duration) {}
}

struct Job<B: Batches> {
    item: B::Item,
    answer: oneshot::Sender<Result<B::Outcome, ServiceError>>,
    at: Instant,
}

/// The writer is gone (the service is stopping).
#[derive(Debug, thiserror::Error)]
#[error("the {0} writer has stopped")]
struct WriterStopped(&'static str);

/// The queue into a writer; the writer's end is taken once, when it starts.
pub struct GroupWriter<B: Batches> {
    queue: mpsc::Sender<Job<B>>,
    writer_end: Mutex<Option<mpsc::Receiver<Job<B>>>>,
    /// Told after each batch commits: there is log to copy back (SQLite). Writers that share
    /// one database share it.
    committed: Arc<Notify>,
    /// What the writer settles with.
    pub(super) batches: B,
}

impl<B: Batches> GroupWriter<B> {
    /// A writer of `batches`, telling `committed` after each batch commits.
    pub fn new(batches: B, committed: Arc<Notify>) -> Self {
        let (queue, writer_end) = mpsc::channel(QUEUE_DEPTH);
        Self {
            queue,
            writer_end: Mutex::new(Some(writer_end)),
            committed,
            batches,
        }
    }

    /// What is told after each batch commits.
    pub fn committed(&self) -> &Arc<Notify> {
        &self.committed
    }

    /// Settles `item` in the writer's next batch; answers once that batch has committed.
    pub(super) async fn settle(&self, item: B::Item) -> Result<B::Outcome, ServiceError> {
        let stopped = || ServiceError::internal(WriterStopped(B::NAME));
        let (answer, answered) = oneshot::channel();
        let job = Job {
            item,
            answer,
            at: Instant::now(),
        };
        self.queue.send(job).await.map_err(|_| stopped())?;
        answered.await.map_err(|_| stopped())?
    }
}

/// Settles one batch: whole, retried, and else in halves; `committed` is told after a batch
/// commits.
async fn settle_jobs<B: Batches>(batches: &B, jobs: Vec<Job<B>>, committed: &Notify) {
    let started = Instant::now();
    batches.taken(&mut jobs.iter().map(|job| started - job.at));
    let (items, answers): (Vec<B::Item>, Vec<_>) =
        jobs.into_iter().map(|job| (job.item, job.answer)).unzip();
    for attempt in 1..=ATTEMPTS {
        match batches.settle(&items).await {
            Ok(outcomes) => {
                batches.finished(started.elapsed());
                tracing::debug!(items = outcomes.len(), writer = B::NAME, "batch settled");
                batches.committed();
                committed.notify_one();
                for (answer, outcome) in answers.into_iter().zip(outcomes) {
                    let _ = answer.send(Ok(outcome));
                }
                return;
            }
            Err(error) => {
                tracing::warn!(%error, attempt, items = items.len(), writer = B::NAME, "batch retried");
                tokio::time::sleep(Duration::from_millis(u64::from(attempt))).await;
            }
        }
    }
    let outcomes = settle_halves(batches, &items, committed).await;
    for (answer, outcome) in answers.into_iter().zip(outcomes) {
        let _ = answer.send(outcome);
    }
    batches.finished(started.elapsed());
}

/// Settles each half of `items` whole, else in halves of its own, and so on down to single
/// items: an item whose statement fails costs its own answer and about `2·log2(n)`
/// transactions of the others' time, not one transaction per item.
async fn settle_halves<B: Batches>(
    batches: &B,
    items: &[B::Item],
    committed: &Notify,
) -> Vec<Result<B::Outcome, ServiceError>> {
    let (first, second) = items.split_at(items.len() / 2);
    let mut outcomes = Vec::with_capacity(items.len());
    for half in [first, second].into_iter().filter(|half| !half.is_empty()) {
        match batches.settle(half).await {
            Ok(settled) => {
                batches.committed();
                committed.notify_one();
                outcomes.extend(settled.into_iter().map(Ok));
            }
            Err(error) if half.len() == 1 => outcomes.push(Err(error)),
            // Not any item's doing: every item of the half hears it, none is tried alone.
            Err(ServiceError::DatabaseUnavailable(cause)) => outcomes.extend(
                half.iter()
                    .map(|_| Err(ServiceError::DatabaseUnavailable(cause.clone()))),
            ),
            Err(_) => outcomes.extend(Box::pin(settle_halves(batches, half, committed)).await),
        }
    }
    outcomes
}

/// Starts `count` writers of `writer`'s queue on a thread of their own (with `checkpointer`
/// copying the SQLite log back after batches commit); they stop when the service (the last
/// `Arc` of `writer`) is dropped. The thread runs its own single-threaded runtime: a batch
/// awaits several database round trips, and on the server's runtime each wake-up would queue
/// behind every request task in flight, so a loaded server would stretch every batch (and
/// every request waiting on it).
pub fn spawn_writers<B: Batches>(
    writer: &Arc<GroupWriter<B>>,
    count: usize,
    checkpointer: Option<WalCheckpointer>,
) -> Option<()> {
    let writer_end = writer
        .writer_end
        .lock()
        .unwrap_or_else(|e| e.into_inner())
        .take()?;
    let committed = writer.committed.clone();
    let batches = writer.batches.clone();
    let service = Arc::downgrade(writer);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .inspect_err(
            |error| tracing::error!(%error, writer = B::NAME, "a writer's runtime did not start"),
        )
        .ok()?;
    let writer_end = Arc::new(tokio::sync::Mutex::new(writer_end));
    std::thread::Builder::new()
        .name(format!("{}-writer", B::NAME))
        .spawn(move || {
            runtime.block_on(async move {
                let mut running = tokio::task::JoinSet::new();
                for _ in 0..count.max(1) {
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
        .inspect_err(
            |error| tracing::error!(%error, writer = B::NAME, "a writer's thread did not start"),
        )
        .ok()?;
    Some(())
}

/// What one writer settles with, and how it knows the service is gone.
struct Writer<B: Batches> {
    service: Weak<GroupWriter<B>>,
    batches: B,
    committed: Arc<Notify>,
}

/// One writer: batch after batch until the queue closes or the service is gone.
async fn write_batches<B: Batches>(
    writer: Writer<B>,
    writer_end: Arc<tokio::sync::Mutex<mpsc::Receiver<Job<B>>>>,
) {
    while let Some(jobs) = next_batch(&writer_end).await {
        if writer.service.strong_count() == 0 {
            return;
        }
        settle_jobs(&writer.batches, jobs, &writer.committed).await;
    }
}

/// Checkpoints the SQLite log after batches commit, at most once per `CHECKPOINT_GAP`, while
/// the service lives.
async fn copy_log_back<B: Batches>(
    service: Weak<GroupWriter<B>>,
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

/// Every item waiting (at least one, at most `MAX_BATCH`); `None` once the queue is closed.
async fn next_batch<B: Batches>(
    writer_end: &tokio::sync::Mutex<mpsc::Receiver<Job<B>>>,
) -> Option<Vec<Job<B>>> {
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
