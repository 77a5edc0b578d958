use lazydoku::Board;
fn main() {
    let text = std::fs::read_to_string("data/million.txt").unwrap();
    let board: Board = text.lines().find(|l| !l.starts_with('#') && !l.trim().is_empty()).unwrap().parse().unwrap();
    let rounds: usize = std::env::args().nth(1).map_or(5, |a| a.parse().unwrap());
    let mut best = f64::MAX;
    for _ in 0..rounds {
        let t = std::time::Instant::now();
        let n = board.solutions().fold(0usize, |a, b| a + usize::from(b.is_complete()));
        assert_eq!(n, 1039784);
        best = best.min(t.elapsed().as_secs_f64());
    }
    println!("best {best:.4}s = {:.2} M/s", 1039784.0 / best / 1e6);
}
