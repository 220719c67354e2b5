//! The USI engine driver: start an engine (any command line, `ssh host
//! engine` included), exchange the handshake, set options, search
//! positions and read the engine's `info` lines as typed values. Every
//! move an engine sends is checked on kifconv's board; every wait has a
//! deadline; the process is always ended.
//!
//! ```no_run
//! use kifconv::usi::{Engine, Limit, Timeouts};
//! use kifconv::Position;
//!
//! let options = [("Threads".to_string(), "1".to_string())];
//! let mut engine = Engine::start("yaneuraou", &options, Timeouts::default())?;
//! let search = engine.search(&Position::startpos(), &[], &Limit::Nodes(10_000))?;
//! println!("{:?} {:?}", search.best, search.pvs[0].score);
//! engine.quit();
//! # Ok::<(), kifconv::usi::EngineError>(())
//! ```

mod analyze;
pub mod check;
mod engine;
mod error;
mod info;
mod process;

pub use analyze::{analyze, evaluation, Analysed, Analysis};
pub use engine::{BestMove, Engine, EngineOption, Limit, Mate, Pv, Search, Timeouts};
pub use error::{EngineError, EngineErrorKind};
pub use info::{Bound, Info, InfoError, Score, Value};
