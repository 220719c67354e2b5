//! Each player's time used so far along a line of play: the running total
//! that the KIF and JKF writers write beside each move's time.

use crate::record::MoveTime;
use crate::Color;

/// Each side's time used so far along a line, in milliseconds.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct Clock([u64; 2]);

impl Clock {
    /// The time of a move by `side` that took `time`, in milliseconds: the
    /// time spent (0 if none was recorded) and the total, the recorded one
    /// or else the side's running total plus this move. Moves the clock on.
    pub(crate) fn column(&mut self, side: Color, time: Option<MoveTime>) -> (u64, u64) {
        let spent = time.map_or(0, |t| t.spent_ms);
        let total = time
            .and_then(|t| t.total_ms)
            .unwrap_or_else(|| self.0[side.index()].saturating_add(spent));
        self.0[side.index()] = total;
        (spent, total)
    }
}
