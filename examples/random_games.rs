//! `cargo run --release --example random_games -- [GAMES] [PLIES] [SEED]`:
//! random legal games from the start position, one USI line each
//! (`position startpos moves …`) on standard output. A game ends after
//! PLIES moves (default 100), or earlier when the side to move has no
//! legal move. The same seed (default 1) gives the same games.
//!
//! The games are for benchmarks that need many real positions, such as a
//! large book (`kifconv book build games.usi -o big.db`).
use kifconv::Position;
use std::io::{BufWriter, Write};

/// Xorshift64*: small, seeded, and the same on every machine.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        // Splitmix64's finaliser: nearby seeds give unrelated games, and
        // the state is never 0 (xorshift's fixed point).
        let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        Rng((z ^ (z >> 31)).max(1))
    }

    /// A number below `n` (`n` > 0).
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as usize % n
    }
}

fn main() -> std::io::Result<()> {
    let mut args = std::env::args().skip(1);
    let mut number = |default: u64, what: &str| -> u64 {
        match args.next() {
            None => default,
            Some(text) => text.parse().unwrap_or_else(|_| {
                eprintln!("random_games: {what} must be a number, not `{text}`");
                std::process::exit(2)
            }),
        }
    };
    let games = number(1000, "GAMES");
    let plies = number(100, "PLIES");
    let mut rng = Rng::new(number(1, "SEED"));
    let mut out = BufWriter::new(std::io::stdout().lock());
    let mut line = String::new();
    for _ in 0..games {
        let mut pos = Position::startpos();
        line.clear();
        line.push_str("position startpos moves");
        for _ in 0..plies {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            let mv = moves[rng.below(moves.len())];
            line.push(' ');
            line.push_str(&mv.to_string());
            pos.play_unchecked(mv);
        }
        line.push('\n');
        out.write_all(line.as_bytes())?;
    }
    out.flush()
}
