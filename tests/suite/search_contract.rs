//! The contract of the search-library issue, exactly as written there.

use lazydoku::{Board, ExactCover, Shape, search};
use rayon::prelude::*;

#[test]
fn search_library_contract() {
    /// N-queens: a node lists the column of the queen in each row placed so far.
    fn queens(n: usize) -> impl Fn(&Vec<usize>) -> Vec<Vec<usize>> + Clone + Send + Sync {
        move |placed: &Vec<usize>| {
            let row = placed.len();
            (0..n)
                .filter(|&c| placed.iter().enumerate().all(|(r, &q)| q != c && q.abs_diff(c) != row - r))
                .map(|c| [placed.as_slice(), &[c]].concat())
                .collect()
        }
    }
    let full = |n: usize| move |p: &Vec<usize>| p.len() == n;

    assert_eq!(search::dfs(vec![], queens(8)).filter(full(8)).count(), 92);
    assert_eq!(search::par_dfs(vec![], queens(10)).filter(full(10)).count(), 724);
    assert_eq!(search::par_dfs(vec![], queens(10)).count(), 35_539); // every node once
    let depths: Vec<usize> = search::iddfs(vec![], queens(8)).map(|p| p.len()).collect();
    assert_eq!(depths.len(), 2057);
    assert!(depths.is_sorted());
    // No subtree with a queen at (0, 0): 4 of the 92 solutions are gone.
    assert_eq!(
        search::dfs(vec![], queens(8)).prune(|p: &Vec<usize>| p.first() != Some(&0)).filter(full(8)).count(),
        88
    );
    assert_eq!(search::beam(vec![], queens(8), |p: &Vec<usize>| p.len(), 1000).filter(full(8)).count(), 92);
    assert!(search::beam(vec![], queens(8), |p: &Vec<usize>| p.len(), 1).count() <= 9);

    // Knuth's example: rows are subsets of 7 columns; one exact cover, rows 0, 3 and 4.
    let mut problem = ExactCover::new(7);
    for row in [&[2, 4, 5][..], &[0, 3, 6], &[1, 2, 5], &[0, 3], &[1, 6], &[3, 4, 6]] {
        problem.add_row(row);
    }
    assert_eq!(problem.solutions().collect::<Vec<Vec<usize>>>(), [vec![0, 3, 4]]);
    assert_eq!(problem.count_solutions(usize::MAX), 1);

    assert_eq!(Board::empty(Shape::new(2, 2)).par_count_solutions(usize::MAX), 288);
    assert_eq!(Board::empty(Shape::NINE).par_count_solutions(1000), 1000);
}
