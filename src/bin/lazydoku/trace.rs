//! `lazydoku trace`: the search itself, board by board, animated on a
//! terminal.

use std::io::{self, IsTerminal, Write};
use std::time::Duration;

use lazydoku::search::{self, Frontier};
use lazydoku::{Board, Children};

use crate::answer::Order;

pub struct Trace {
    pub order: Order,
    pub limit: usize,
    pub delay: Duration,
    /// The most a breadth- or best-first frontier may hold, in bytes.
    pub max_memory: u64,
}

impl Trace {
    /// Prints every board the search visits until the first complete one.
    /// Returns whether a solution was reached.
    pub fn run(&self, board: &Board) -> Result<bool, String> {
        let children: fn(&Board) -> Children = Board::children;
        match self.order {
            Order::Dfs => self.follow(search::dfs(board.clone(), children)),
            Order::Bfs => self.follow(search::bfs(board.clone(), children)),
            Order::Best => {
                self.follow(search::best_first(board.clone(), children, Board::empty_cells as fn(&Board) -> usize))
            }
        }
    }

    fn follow<F: Frontier<Children>>(
        &self,
        mut steps: search::Search<Board, Children, fn(&Board) -> Children, F>,
    ) -> Result<bool, String> {
        let animate = io::stdout().is_terminal();
        let stdout = io::stdout();
        let mut out = io::BufWriter::new(stdout.lock());
        let fail = |e: io::Error| format!("cannot write the output: {e}");
        let mut entry = None;
        for step in 1..=self.limit {
            let Some(board) = steps.next() else {
                out.flush().map_err(fail)?;
                return Ok(false);
            };
            // A frontier entry holds a board and its child iterator's state.
            let entry = *entry.get_or_insert(size_of::<Children>() + board.size_in_bytes());
            let held = u64::try_from(steps.frontier().len().saturating_mul(entry)).unwrap_or(u64::MAX);
            if held > self.max_memory {
                out.flush().map_err(fail)?;
                return Err(format!("the frontier passed {} bytes; use --order dfs", self.max_memory));
            }
            let done = board.is_complete();
            if animate {
                // Home and clear, then the grid: the board fills in place.
                write!(out, "\x1b[H\x1b[2J{board:#}\nstep {step}: {} empty cells\n", board.empty_cells())
                    .map_err(fail)?;
                out.flush().map_err(fail)?;
                std::thread::sleep(self.delay);
            } else if let Err(e) = writeln!(out, "{step}\t{}\t{board}", board.empty_cells()) {
                return if e.kind() == io::ErrorKind::BrokenPipe { Ok(done) } else { Err(fail(e)) };
            }
            if done {
                // Output that cannot be written is an error, not a success.
                return match out.flush() {
                    Err(e) if e.kind() != io::ErrorKind::BrokenPipe => Err(fail(e)),
                    _ => Ok(true),
                };
            }
        }
        out.flush().map_err(fail)?;
        Err(format!("no solution within {} steps; raise --limit", self.limit))
    }
}
