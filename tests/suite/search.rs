//! The generic search: visit orders, laziness, depth, and iterator hygiene.

use std::cell::Cell;
use std::rc::Rc;

use lazydoku::search::{self, Frontier, Queue, Stack};

/// The full binary tree below `n` up to `limit`, as successors.
fn binary(limit: u32) -> impl FnMut(&u32) -> Vec<u32> + Clone {
    move |&n| (2 * n..=2 * n + 1).filter(|&c| c <= limit).collect()
}

#[test]
fn dfs_is_preorder_and_bfs_is_level_order() {
    assert_eq!(search::dfs(1, binary(15)).collect::<Vec<_>>(), [1, 2, 4, 8, 9, 5, 10, 11, 3, 6, 12, 13, 7, 14, 15]);
    assert_eq!(search::bfs(1, binary(15)).collect::<Vec<_>>(), (1..=15).collect::<Vec<_>>());
}

#[test]
fn best_first_takes_smallest_key_and_breaks_ties_by_insertion() {
    // Key: the number of one bits; ties in the order nodes were discovered.
    let order: Vec<u32> = search::best_first(1, binary(15), |n: &u32| n.count_ones()).collect();
    // 9 (found fifth) comes before 6 (found sixth): both have two one bits.
    assert_eq!(order, [1, 2, 4, 8, 3, 5, 9, 6, 10, 12, 7, 11, 13, 14, 15]);
}

/// Successors that count every child they build.
fn counting(built: Rc<Cell<usize>>) -> impl FnMut(&u64) -> Box<dyn Iterator<Item = u64>> {
    move |&n| {
        let built = Rc::clone(&built);
        Box::new((0..10).map(move |i| {
            built.set(built.get() + 1);
            n * 10 + i
        }))
    }
}

#[test]
fn dfs_builds_no_sibling_before_it_is_needed() {
    let built = Rc::new(Cell::new(0));
    let mut it = search::dfs(1u64, counting(Rc::clone(&built)));
    assert_eq!(built.get(), 0, "creating the search builds nothing");
    assert_eq!(it.next(), Some(1));
    assert_eq!(built.get(), 0, "yielding the root builds no child");
    for _ in 0..5 {
        it.next();
    }
    // Five nodes after the root, each the first child of the one before.
    assert_eq!(built.get(), 5);
}

#[test]
fn bfs_builds_no_sibling_before_it_is_needed() {
    let built = Rc::new(Cell::new(0));
    let mut it = search::bfs(1u64, counting(Rc::clone(&built)));
    let visited: Vec<u64> = it.by_ref().take(13).collect();
    assert_eq!(visited[..4], [1, 10, 11, 12]);
    // The root, its ten children, and two grandchildren: twelve built.
    assert_eq!(built.get(), 12);
}

#[test]
fn best_first_expands_a_node_only_when_the_next_one_is_asked_for() {
    let built = Rc::new(Cell::new(0));
    let mut it = search::best_first(1u64, counting(Rc::clone(&built)), |&n| n);
    assert_eq!(it.next(), Some(1));
    assert_eq!(built.get(), 0);
    assert_eq!(it.next(), Some(10));
    assert_eq!(built.get(), 10, "all children of the root are keyed at once");
}

#[test]
fn shuffled_builds_a_node_s_children_only_when_the_next_one_is_asked_for() {
    let built = Rc::new(Cell::new(0));
    let mut it = search::shuffled_dfs(1u64, counting(Rc::clone(&built)), 5);
    assert_eq!(it.next(), Some(1));
    assert_eq!(built.get(), 0);
    let second = it.next().unwrap();
    assert!((10..20).contains(&second));
    assert_eq!(built.get(), 10, "one level is built and shuffled at once");
    // Seeds change the order; the same seed repeats it.
    let order = |seed| search::shuffled_dfs(1u32, binary(63), seed).collect::<Vec<_>>();
    assert_eq!(order(3), order(3));
    assert_ne!(order(3), order(4));
    let mut all = order(3);
    all.sort_unstable();
    assert_eq!(all, (1..=63).collect::<Vec<_>>());
}

#[test]
fn a_child_that_panics_when_built_is_never_built_past_what_is_asked() {
    // The successors iterator of a node is created when the node is yielded,
    // but building the child of 3 would panic: taking four nodes must not.
    let succ = |&n: &u32| {
        std::iter::once_with(move || {
            assert!(n < 3, "built the child of {n}, which nobody asked for");
            n + 1
        })
    };
    let got: Vec<u32> = search::dfs(0, succ).take(4).collect();
    assert_eq!(got, [0, 1, 2, 3]);
    let got: Vec<u32> = search::bfs(0, succ).take(4).collect();
    assert_eq!(got, [0, 1, 2, 3]);
}

#[test]
fn a_chain_a_million_deep_does_not_overflow_the_stack() {
    let depth = 1_000_000u32;
    let chain = move |&n: &u32| (n < depth).then_some(n + 1);
    assert_eq!(search::dfs(0, chain).count(), depth as usize + 1);
    assert_eq!(search::bfs(0, chain).count(), depth as usize + 1);
    assert_eq!(search::best_first(0, chain, |&n| std::cmp::Reverse(n)).count(), depth as usize + 1);
    // The DFS stack holds the whole chain; dropping it must not recurse either.
    let mut it = search::dfs(0, chain);
    it.by_ref().take(depth as usize).for_each(drop);
    assert!(it.frontier().len() > 900_000);
    drop(it);
}

#[test]
fn size_hint_is_truthful_at_every_step() {
    for order in 0..4 {
        let mut it: Box<dyn Iterator<Item = u32>> = match order {
            0 => Box::new(search::dfs(1, binary(40))),
            1 => Box::new(search::bfs(1, binary(40))),
            2 => Box::new(search::shuffled_dfs(1, binary(40), 99)),
            _ => Box::new(search::best_first(1, binary(40), |&n| n % 7)),
        };
        let mut left = 40;
        loop {
            let (lo, hi) = it.size_hint();
            assert!(lo <= left, "lower bound {lo} above {left}");
            assert!(hi.is_none_or(|hi| hi >= left), "upper bound {hi:?} below {left}");
            if it.next().is_none() {
                break;
            }
            left -= 1;
        }
        assert_eq!(left, 0);
        assert_eq!(it.size_hint(), (0, Some(0)), "an exhausted search knows it is empty");
    }
}

#[test]
fn searches_are_fused() {
    let mut it = search::dfs(1, binary(3));
    assert_eq!(it.by_ref().count(), 3);
    for _ in 0..3 {
        assert_eq!(it.next(), None);
    }
}

#[test]
fn a_cloned_search_continues_independently() {
    let mut a = search::bfs(1u32, |&n| [2 * n, 2 * n + 1]);
    a.by_ref().take(5).for_each(drop);
    let mut b = a.clone();
    assert_eq!(a.by_ref().take(5).collect::<Vec<_>>(), b.by_ref().take(5).collect::<Vec<_>>());
}

#[test]
fn debug_output_skips_the_closure() {
    let it = search::dfs(7u8, |&n| n.checked_sub(1));
    let text = format!("{it:?}");
    assert!(text.starts_with("Search { root: Some(7), frontier: Stack"), "{text}");
    let best = search::best_first(7u8, |&n| n.checked_sub(1), |&n| n);
    assert!(format!("{best:?}").contains("BestFirst"), "{best:?}");
}

#[test]
fn stack_and_queue_are_frontiers_of_child_iterators() {
    let mut stack = Stack::new();
    stack.push(vec![1, 2].into_iter());
    stack.push(vec![3].into_iter());
    assert_eq!(Frontier::len(&stack), 2);
    assert_eq!([stack.pop(), stack.pop(), stack.pop(), stack.pop()], [Some(3), Some(1), Some(2), None]);
    assert!(Frontier::is_empty(&stack));

    let mut queue = Queue::new();
    queue.push(vec![1, 2].into_iter());
    queue.push(vec![3].into_iter());
    assert_eq!([queue.pop(), queue.pop(), queue.pop(), queue.pop()], [Some(1), Some(2), Some(3), None]);
}

#[test]
fn leaves_that_say_they_are_empty_take_no_slot_in_the_frontier() {
    /// A stack that counts what it is handed.
    struct Counting<I> {
        inner: Stack<I>,
        pushes: usize,
    }
    impl<I: Iterator> Frontier<I> for Counting<I> {
        fn push(&mut self, children: I) {
            self.pushes += 1;
            self.inner.push(children);
        }
        fn pop(&mut self) -> Option<I::Item> {
            self.inner.pop()
        }
        fn len(&self) -> usize {
            Frontier::len(&self.inner)
        }
    }
    // A binary tree of 15 nodes: 7 inner nodes, 8 leaves with no children.
    let children = |&n: &u32| if n < 8 { vec![2 * n, 2 * n + 1] } else { Vec::new() };
    let mut it = search::with_frontier(1, children, Counting { inner: Stack::new(), pushes: 0 });
    assert_eq!(it.by_ref().count(), 15);
    assert_eq!(it.frontier().pushes, 7, "only the inner nodes' children are pushed");

    // An iterator that cannot promise to be empty is pushed, even if it is.
    let unsure = |&n: &u32| {
        let mut inner = children(&n).into_iter();
        std::iter::from_fn(move || inner.next())
    };
    let mut it = search::with_frontier(1, unsure, Counting { inner: Stack::new(), pushes: 0 });
    assert_eq!(it.by_ref().count(), 15);
    assert_eq!(it.frontier().pushes, 15);
}

/// Every node of the tree below 64 (children 2n and 2n + 1) that a search
/// visits when building node 6 panics and the caller catches it and goes on.
fn visited_despite_a_panic<I: Iterator<Item = u32>>(mut search: I) -> Vec<u32> {
    let mut seen = Vec::new();
    loop {
        match std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| search.next())) {
            Ok(Some(n)) => seen.push(n),
            Ok(None) => break,
            Err(_) => {}
        }
    }
    seen.sort_unstable();
    seen
}

#[test]
fn a_panicking_child_or_key_loses_its_own_subtree_only() {
    let children =
        |&n: &u32| (2 * n..2 * n + 2).filter(|&c| c < 64).inspect(|&c| assert!(c != 6, "building node 6 fails"));
    // Node 6 and its subtree (12, 13, 24 to 27, 48 to 55) are lost; its sibling 7 is not.
    let lost = [6, 12, 13, 24, 25, 26, 27, 48, 49, 50, 51, 52, 53, 54, 55];
    let expected: Vec<u32> = (1..64).filter(|n| !lost.contains(n)).collect();
    let quiet = std::panic::take_hook();
    std::panic::set_hook(Box::new(|_| {}));
    let dfs = visited_despite_a_panic(search::dfs(1, children));
    let bfs = visited_despite_a_panic(search::bfs(1, children));
    let shuffled = visited_despite_a_panic(search::shuffled_dfs(1, children, 9));
    let best = visited_despite_a_panic(search::best_first(1, children, |&n: &u32| n));
    // A key that panics loses that node only, as a child that panics does.
    let plain = |&n: &u32| (2 * n..2 * n + 2).filter(|&c| c < 64);
    let keyed = visited_despite_a_panic(search::best_first(1, plain, |&n: &u32| {
        assert!(n != 6, "keying node 6 fails");
        n
    }));
    std::panic::set_hook(quiet);
    assert_eq!(dfs, expected);
    assert_eq!(bfs, expected);
    assert_eq!(shuffled, expected);
    assert_eq!(best, expected);
    assert_eq!(keyed, expected);
}

#[test]
fn a_budget_stops_a_search_at_the_same_node_every_time() {
    use lazydoku::search::{Budget, Limit};

    let endless = || search::dfs(0u64, |&n: &u64| [n + 1, n + 2]);
    let mut walk = endless().within(Budget::nodes(1_000));
    let first: Vec<u64> = walk.by_ref().collect();
    assert_eq!(first.len(), 1_000);
    let stopped = walk.exhausted().expect("an endless tree");
    assert_eq!((stopped.nodes(), stopped.limit()), (1_000, Limit::Nodes(1_000)));
    assert_eq!(walk.next(), None, "it stays stopped");
    assert_eq!(endless().within(Budget::nodes(1_000)).collect::<Vec<_>>(), first);

    // A tree smaller than the budget ends without running out.
    let mut small = search::bfs(1u32, binary(16)).within(Budget::nodes(1_000));
    assert_eq!(small.by_ref().count(), 16);
    assert_eq!(small.exhausted(), None);

    // A time budget stops an endless search.
    let mut timed = endless().within(Budget::time(std::time::Duration::from_millis(20)));
    assert!(timed.by_ref().count() > 0);
    assert!(matches!(timed.exhausted().map(|e| e.limit()), Some(Limit::Time(_))));
}

/// A random tree from `seed`: each node below depth 6 has 0 to 4 children.
fn random_tree(seed: u64) -> impl Fn(&(u64, u32)) -> Vec<(u64, u32)> + Clone + Send + Sync {
    move |&(id, depth): &(u64, u32)| {
        let mix = (id ^ seed).wrapping_mul(0x9E37_79B9_7F4A_7C15).rotate_left(17);
        let children = if depth < 6 { mix % 5 } else { 0 };
        (0..children).map(|i| (id * 5 + i + 1, depth + 1)).collect()
    }
}

#[test]
fn par_dfs_visits_every_node_exactly_once() {
    use rayon::prelude::*;

    for seed in 0..20 {
        let tree = random_tree(seed);
        let mut sequential: Vec<(u64, u32)> = search::dfs((0, 0), tree.clone()).collect();
        let mut parallel: Vec<(u64, u32)> = search::par_dfs((0, 0), tree).collect();
        sequential.sort_unstable();
        parallel.sort_unstable();
        assert_eq!(parallel, sequential, "seed {seed}");
    }
    // A large tree, so that the work is shared while it is walked.
    let big = |&n: &u64| if n < 1 << 20 { vec![2 * n, 2 * n + 1] } else { vec![] };
    assert_eq!(search::par_dfs(1u64, big).count(), (1 << 21) - 1);
    assert_eq!(search::par_dfs(1u64, big).map(|n| u64::from(n.count_ones())).sum::<u64>(), {
        (1..1u64 << 21).map(|n| u64::from(n.count_ones())).sum::<u64>()
    });
    // An endless tree: find_any stops.
    assert!(search::par_dfs(1u64, |&n: &u64| [2 * n, 2 * n + 1]).find_any(|&n| n > 1000).is_some());
}

#[test]
fn par_dfs_shares_a_tree_of_few_slow_nodes() {
    use std::collections::HashSet;
    use std::sync::Mutex;
    use std::time::{Duration, Instant};

    use rayon::prelude::*;

    // Eight children of the root, each a leaf that takes a while, as a
    // subtree counted at once does: far fewer nodes than a worker visits
    // before it looks at sharing when nodes are quick. Each leaf after the
    // first waits for another worker to show up (for half a minute at
    // most, however slow the machine), which it does only if the work is
    // shared.
    let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
    let workers = Mutex::new(HashSet::new());
    let give_up = Instant::now() + Duration::from_secs(30);
    let successors = |&n: &u32| {
        if n == 0 {
            return (1..=8).collect();
        }
        workers.lock().unwrap().insert(rayon::current_thread_index());
        if n == 1 {
            std::thread::sleep(Duration::from_millis(2));
            return Vec::new();
        }
        while workers.lock().unwrap().len() < 2 && Instant::now() < give_up {
            std::thread::sleep(Duration::from_millis(1));
        }
        Vec::new()
    };
    let nodes = pool.install(|| search::par_dfs(0u32, successors).count());
    assert_eq!(nodes, 9);
    assert_eq!(workers.into_inner().unwrap().len(), 2, "both workers walked a part");
}

#[test]
fn iddfs_is_breadth_first_order_level_by_level() {
    for seed in 0..20 {
        let tree = random_tree(seed);
        let deepening: Vec<(u64, u32)> = search::iddfs((0, 0), tree.clone()).collect();
        let mut by_level: Vec<(u64, u32)> = search::dfs((0, 0), tree.clone()).collect();
        // Within a level, depth-first order: a stable sort of the depth-first order by depth.
        by_level.sort_by_key(|&(_, depth)| depth);
        assert_eq!(deepening, by_level, "seed {seed}");
        assert_eq!(search::bfs((0, 0), tree).count(), deepening.len());
    }
    // One node, and an endless tree taken lazily.
    assert_eq!(search::iddfs(7u8, |_: &u8| Vec::new()).collect::<Vec<_>>(), [7]);
    assert_eq!(search::iddfs(0u64, |&n: &u64| [n + 1]).take(5).collect::<Vec<_>>(), [0, 1, 2, 3, 4]);
}

#[test]
fn beam_keeps_the_best_of_each_level() {
    for seed in 0..20 {
        let tree = random_tree(seed);
        // Wide enough for every level: every node, each level in key order.
        let key = |&(id, _): &(u64, u32)| id % 7;
        let wide: Vec<(u64, u32)> = search::beam((0, 0), tree.clone(), key, usize::MAX).collect();
        assert_eq!(wide.len(), search::bfs((0, 0), tree.clone()).count(), "seed {seed}");
        assert!(wide.windows(2).all(|w| w[0].1 < w[1].1 || (w[0].1 == w[1].1 && key(&w[0]) <= key(&w[1]))));
        // Narrow: at most `width` nodes a level, each a best of its candidates.
        let narrow: Vec<(u64, u32)> = search::beam((0, 0), tree, key, 2).collect();
        for depth in 1..=6 {
            assert!(narrow.iter().filter(|n| n.1 == depth).count() <= 2, "seed {seed}");
        }
    }
}

#[test]
fn prune_neither_yields_nor_expands_what_fails() {
    let expanded = Rc::new(Cell::new(0));
    let seen = Rc::clone(&expanded);
    let tree = move |&n: &u32| {
        seen.set(seen.get() + 1);
        if n < 64 { vec![2 * n, 2 * n + 1] } else { vec![] }
    };
    let kept: Vec<u32> = search::bfs(1, tree).prune(|&n| n % 3 != 0).collect();
    assert!(kept.iter().all(|&n| n % 3 != 0));
    // The children of a pruned node are never built: 6 is pruned, so 12 and 13 never appear.
    assert!(!kept.contains(&12) && !kept.contains(&13));
    assert_eq!(expanded.get(), kept.len(), "only kept nodes are expanded");
    assert_eq!(search::dfs(3u32, |_: &u32| vec![1]).prune(|&n| n != 3).count(), 0, "the root too");
}

#[test]
fn lds_visits_every_node_once_fewest_discrepancies_first() {
    for seed in 0..20 {
        let tree = random_tree(seed);
        let order: Vec<(u64, u32)> = search::lds((0, 0), tree.clone()).collect();
        let mut sorted = order.clone();
        sorted.sort_unstable();
        let mut all: Vec<(u64, u32)> = search::dfs((0, 0), tree.clone()).collect();
        all.sort_unstable();
        assert_eq!(sorted, all, "seed {seed}");
        // A node's discrepancies: the steps on its path that took a child other than the first.
        let discrepancies = |target: (u64, u32)| {
            let (mut node, mut count) = (target, 0);
            while node.1 > 0 {
                let parent = search::dfs((0, 0), tree.clone()).find(|p| tree(p).contains(&node)).unwrap();
                count += usize::from(tree(&parent)[0] != node);
                node = parent;
            }
            count
        };
        let counts: Vec<usize> = order.iter().map(|&n| discrepancies(n)).collect();
        assert!(counts.is_sorted(), "seed {seed}: {counts:?}");
    }
}

#[test]
fn interleave_is_fair_to_endless_searches() {
    let mut it = search::interleave((0..3u64).map(|start| search::dfs(start, |&n: &u64| [n + 3])));
    assert_eq!(it.by_ref().take(9).collect::<Vec<_>>(), (0..9).collect::<Vec<_>>());
    let finite = search::interleave([vec![1, 2, 3].into_iter(), vec![].into_iter(), vec![4].into_iter()]);
    assert_eq!(finite.size_hint(), (4, Some(4)));
    assert_eq!(finite.collect::<Vec<_>>(), [1, 4, 2, 3]);
}

#[test]
fn restarts_end_once_a_run_covers_the_tree_and_repeat_with_the_seed() {
    for seed in 0..10 {
        let tree = random_tree(seed);
        let nodes = search::dfs((0, 0), tree.clone()).count();
        let runs: Vec<(u64, u32)> = search::restarts((0, 0), tree.clone(), seed, 4).collect();
        // The last run saw every node; the ones before were cut short.
        let mut last: Vec<(u64, u32)> = runs[runs.len() - nodes..].to_vec();
        last.sort_unstable();
        let mut all: Vec<(u64, u32)> = search::dfs((0, 0), tree.clone()).collect();
        all.sort_unstable();
        assert_eq!(last, all, "seed {seed}");
        assert_eq!(search::restarts((0, 0), tree, seed, 4).collect::<Vec<_>>(), runs, "the same again");
    }
}

#[test]
fn walk_is_dfs_with_depths_a_depth_bound_and_skipped_subtrees() {
    for seed in 0..20 {
        let tree = random_tree(seed);
        let mut walk = search::walk((0, 0), tree.clone());
        let mut seen = Vec::new();
        while let Some(node) = walk.next() {
            assert_eq!(walk.depth(), node.1 as usize, "seed {seed}");
            seen.push(node);
        }
        assert_eq!(seen, search::dfs((0, 0), tree.clone()).collect::<Vec<_>>(), "seed {seed}");
        let shallow: Vec<(u64, u32)> = search::walk((0, 0), tree.clone()).max_depth(3).collect();
        assert_eq!(shallow, seen.iter().copied().filter(|n| n.1 <= 3).collect::<Vec<_>>(), "seed {seed}");
    }
    // Skipped children are never built.
    let built = Rc::new(Cell::new(0));
    let counter = Rc::clone(&built);
    let tree = move |&n: &u32| {
        let counter = Rc::clone(&counter);
        (2 * n..2 * n + 2).filter(|&c| c < 64).inspect(move |_| counter.set(counter.get() + 1))
    };
    let mut walk = search::walk(1, tree);
    let mut seen = Vec::new();
    while let Some(n) = walk.next() {
        seen.push(n);
        if n % 2 == 0 {
            walk.skip_children();
        }
    }
    // Only odd nodes open: 1, 3, 7, 15, 31 and their children.
    assert_eq!(seen, [1, 2, 3, 6, 7, 14, 15, 30, 31, 62, 63]);
    assert_eq!(built.get(), seen.len() - 1, "nothing below a skipped node was built");
}

/// The goals of the random trees: nodes whose id is a multiple of 3.
fn goal(&(id, _): &(u64, u32)) -> bool {
    id % 3 == 0
}

#[test]
fn a_counter_counts_what_filter_counts_and_resumes_where_it_stopped() {
    for seed in 0..30 {
        let tree = random_tree(seed);
        let all = search::dfs((0, 0), tree.clone()).filter(goal).count();
        for limit in [0, 1, 2, all / 2, all, all + 1, usize::MAX] {
            let counted = search::dfs((0, 0), tree.clone()).counter(goal).up_to(limit);
            assert_eq!(counted, all.min(limit), "seed {seed}, limit {limit}");
            // Any frontier: the same number.
            assert_eq!(search::bfs((0, 0), tree.clone()).counter(goal).up_to(limit), counted);
        }
        // Counted a few at a time, the same total, and then nothing more.
        let mut counter = search::dfs((0, 0), tree.clone()).counter(goal);
        let mut total = 0;
        loop {
            let found = counter.up_to(3);
            assert!(found <= 3);
            total += found;
            if found < 3 {
                break;
            }
        }
        assert_eq!(total, all, "seed {seed}");
        assert_eq!(counter.up_to(usize::MAX), 0);
    }
}

/// The goals in the subtree of `node`, walked.
fn goals_below(node: (u64, u32), tree: impl FnMut(&(u64, u32)) -> Vec<(u64, u32)>) -> usize {
    search::dfs(node, tree).filter(goal).count()
}

#[test]
fn a_shortcut_counts_a_subtree_without_expanding_it() {
    for seed in 0..30 {
        let tree = random_tree(seed);
        let all = goals_below((0, 0), tree.clone());
        // Every node at depth 2 counted by the shortcut, by its own walk.
        let expanded = Rc::new(Cell::new(Vec::new()));
        let watched = {
            let (tree, expanded) = (tree.clone(), Rc::clone(&expanded));
            move |node: &(u64, u32)| {
                let mut seen = expanded.take();
                seen.push(*node);
                expanded.set(seen);
                tree(node)
            }
        };
        let at_depth_two =
            |node: &(u64, u32), wanted: usize| (node.1 == 2).then(|| goals_below(*node, random_tree(seed)).min(wanted));
        for limit in [1, all / 2, all, usize::MAX] {
            let counted = search::dfs((0, 0), watched.clone()).counter(goal).shortcut(at_depth_two).up_to(limit);
            assert_eq!(counted, all.min(limit), "seed {seed}, limit {limit}");
        }
        assert!(expanded.take().iter().all(|&(_, depth)| depth < 2), "seed {seed}: a counted subtree was expanded");
    }

    // The shortcut may say more than is wanted: the count still stops at the limit.
    let generous = |_: &(u64, u32), _: usize| Some(1_000);
    assert_eq!(search::dfs((0, 0), random_tree(1)).counter(goal).shortcut(generous).up_to(10), 10);
}

#[test]
fn a_counter_within_a_budget_says_where_it_stopped() {
    use lazydoku::search::{Budget, Limit};

    let endless = search::dfs(0u64, |&n: &u64| [n + 1, n + 2]);
    let mut evens = endless.counter(|&n| n % 2 == 0).within(Budget::nodes(500));
    let counted = evens.up_to(usize::MAX);
    assert!(counted > 0 && counted < 500);
    assert_eq!(evens.visited(), 500);
    assert_eq!(evens.exhausted().map(|e| (e.nodes(), e.limit())), Some((500, Limit::Nodes(500))));
    assert_eq!(evens.up_to(usize::MAX), 0, "it stays stopped");

    // A budget of exactly the tree's size is enough: the end is not the end of the budget.
    let size = search::dfs(1u32, binary(63)).count();
    let mut exact = search::dfs(1u32, binary(63)).counter(|_| true).within(Budget::nodes(size as u64));
    assert_eq!(exact.up_to(usize::MAX), size);
    assert_eq!(exact.exhausted(), None);
}

#[test]
fn a_parallel_counter_agrees_with_the_sequential_one() {
    for seed in 0..30 {
        let tree = random_tree(seed);
        let all = goals_below((0, 0), tree.clone());
        let at_depth_two = move |node: &(u64, u32), wanted: usize| {
            (node.1 == 2).then(|| goals_below(*node, random_tree(seed)).min(wanted))
        };
        for limit in [0, 1, all / 2, all, usize::MAX] {
            let parallel = search::par_dfs((0, 0), tree.clone()).counter(goal).up_to(limit);
            assert_eq!(parallel, all.min(limit), "seed {seed}, limit {limit}");
            let shortcut = search::par_dfs((0, 0), tree.clone()).counter(goal).shortcut(at_depth_two).up_to(limit);
            assert_eq!(shortcut, all.min(limit), "seed {seed}, limit {limit}, with a shortcut");
        }
    }
    // A shortcut at the root counts everything at once.
    let whole = |_: &u64, wanted: usize| Some(7.min(wanted));
    assert_eq!(search::par_dfs(0u64, |&n: &u64| [n + 1]).counter(|_| true).shortcut(whole).up_to(5), 5);
    // An endless tree stops once the limit is reached.
    let endless = search::par_dfs(1u64, |&n: &u64| [n + 1, n + 2]);
    assert_eq!(endless.counter(|&n| n % 7 == 0).up_to(10_000), 10_000);
}
