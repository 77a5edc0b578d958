use lazydoku::{Board, search};
fn main() {
    let text = std::fs::read_to_string("data/million.txt").unwrap();
    let board: Board = text.lines().find(|l| !l.starts_with('#') && !l.trim().is_empty()).unwrap().parse().unwrap();
    let (mut placed, mut kids, mut nodes) = (0u64, 0u64, 0u64);
    let mut by = [0u64; 82];
    for b in search::dfs(board.clone(), Board::children) {
        if b.is_complete() { continue; }
        nodes += 1;
        let e = b.empty_cells();
        for c in b.children() { kids += 1; placed += (e - c.empty_cells()) as u64; by[e - c.empty_cells()] += 1; }
    }
    println!("{nodes} internal nodes, {kids} children, {placed} cells placed, {:.2} per child", placed as f64 / kids as f64);
    for k in 0..82 { if by[k] > 0 { print!("{k}:{} ", by[k]); } }
    println!();
}
