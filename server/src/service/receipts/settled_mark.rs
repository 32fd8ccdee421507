//! The settled mark: the highest bet id below which every bet is committed, the bound of the
//! audit feed's pages (a client paging by the last id seen would otherwise skip a bet whose
//! id was taken before a higher one but committed after it). On PostgreSQL reading it takes a
//! moment's SHARE lock on the bets (plays queue behind it), so readers share readings: one at
//! a time, at most once per `MIN_INTERVAL`, and a caller takes a reading that began after it
//! arrived, which therefore counts every play answered before it asked. On SQLite ids are
//! committed in order, so every visible bet is below the mark and nothing is read.

use std::sync::Mutex;
use std::time::{Duration, Instant};

use crate::service::error::ServiceError;
use crate::store;
use crate::store::Db;

/// The least time between two readings: a flood of feed pages locks the bets at most this often.
const MIN_INTERVAL: Duration = Duration::from_millis(50);

#[derive(Default)]
pub struct SettledMark {
    latest: Mutex<Option<Reading>>,
    /// Held while reading.
    reading: tokio::sync::Mutex<()>,
}

#[derive(Clone, Copy)]
struct Reading {
    began: Instant,
    up_to: i64,
}

impl SettledMark {
    fn latest(&self) -> Option<Reading> {
        *self.latest.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The latest reading if it began after `arrived`.
    fn since(&self, arrived: Instant) -> Option<i64> {
        self.latest()
            .filter(|reading| reading.began >= arrived)
            .map(|reading| reading.up_to)
    }

    fn keep(&self, reading: Reading) {
        *self.latest.lock().unwrap_or_else(|e| e.into_inner()) = Some(reading);
    }
}

impl SettledMark {
    /// The audit feed's bound: no bet with a lower id can be committed after a page up to it
    /// is read; every play answered before this call is below it.
    pub async fn settled_up_to(&self, db: &Db) -> Result<i64, ServiceError> {
        if store::stats::bet_ids_commit_in_order(db) {
            return Ok(i64::MAX);
        }
        let arrived = Instant::now();
        let mark = self;
        if let Some(up_to) = mark.since(arrived) {
            return Ok(up_to);
        }
        let _turn = mark.reading.lock().await;
        if let Some(up_to) = mark.since(arrived) {
            return Ok(up_to);
        }
        if let Some(last) = mark.latest() {
            tokio::time::sleep(MIN_INTERVAL.saturating_sub(last.began.elapsed())).await;
        }
        let began = Instant::now();
        let up_to = store::stats::settled_up_to(db).await?;
        mark.keep(Reading { began, up_to });
        Ok(up_to)
    }
}
