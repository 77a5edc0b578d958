//! `lazydoku trace`: the search itself, board by board (the Scala seed's
//! `steps` stream), animated on a terminal.

use std::io::{self, IsTerminal, Write};
use std::time::Duration;

use lazydoku::search::{self, Frontier};
use lazydoku::{Board, Children};

use crate::answer::Order;

pub struct Trace {
    pub order: Order,
    pub limit: usize,
    pub delay: Duration,
    pub max_frontier: usize,
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
        for step in 1..=self.limit {
            if steps.frontier().len() > self.max_frontier {
                return Err(format!("the frontier passed {} boards; use --order dfs", self.max_frontier));
            }
            let Some(board) = steps.next() else { return Ok(false) };
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
                return Ok(true);
            }
        }
        out.flush().map_err(fail)?;
        Err(format!("no solution within {} steps; raise --limit", self.limit))
    }
}
