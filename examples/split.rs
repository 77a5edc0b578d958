use lazydoku::Board;
fn main() {
    let text = std::fs::read_to_string(std::env::args().nth(1).unwrap()).unwrap();
    let boards: Vec<Board> = text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    let n = boards.len() as f64;
    let t = std::time::Instant::now();
    let settled: Vec<Board> = boards.iter().map(|b| b.propagated().unwrap()).collect();
    println!("root propagation {:.2} us", t.elapsed().as_secs_f64() * 1e6 / n);
    let t = std::time::Instant::now();
    let c: usize = settled.iter().map(|b| b.count_solutions(2)).sum();
    println!("count from settled {:.2} us ({c})", t.elapsed().as_secs_f64() * 1e6 / n);
    let nodes: usize = settled
        .iter()
        .map(|b| {
            lazydoku::search::dfs(b.clone(), Board::children)
                .scan(0, |s, x| {
                    if x.is_complete() {
                        *s += 1;
                    }
                    if *s > 2 { None } else { Some(x) }
                })
                .count()
        })
        .sum();
    println!("nodes visited per puzzle {:.1}", nodes as f64 / n);
    let empties: usize = settled.iter().map(Board::empty_cells).sum();
    println!("empty cells after root propagation {:.1}", empties as f64 / n);
}
