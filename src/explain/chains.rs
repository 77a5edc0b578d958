//! Single-digit chains: simple colouring and X-chains. Both rest on strong
//! links, pairs of cells that are a digit's only places in some region, so
//! that one of the two holds it.

use smallvec::smallvec;
use std::collections::VecDeque;

use itertools::Itertools;

use super::grid::{Grid, symbol};
use super::{Step, Technique};

/// For each cell, the cells it is strongly linked to on `digit`.
fn strong_links(grid: &Grid, digit: u8) -> Vec<Vec<usize>> {
    let mut links = vec![Vec::new(); grid.candidates.len()];
    for unit in 0..grid.unit_count() {
        if let Some((a, b)) = grid.two_places(unit, digit) {
            if !links[a].contains(&b) {
                links[a].push(b);
                links[b].push(a);
            }
        }
    }
    links
}

/// Colours each chain of strong links in two alternating colours: one
/// colour holds the digit. Two cells of one colour that see each other
/// rule that colour out (a colour wrap); a cell that sees both colours
/// cannot hold the digit (a colour trap).
/// Only the digits of `digits` are looked at.
pub(super) fn colouring(grid: &Grid, digits: u32) -> Option<Step> {
    let technique = Technique::SimpleColouring;
    super::grid::digits(digits & grid.geometry().full).find_map(|digit| {
        let links = strong_links(grid, digit);
        let mut colour: Vec<Option<bool>> = vec![None; links.len()];
        (0..links.len()).filter(|&c| !links[c].is_empty()).find_map(|start| {
            if colour[start].is_some() {
                return None;
            }
            let mut component = vec![start];
            colour[start] = Some(false);
            let mut next = 0;
            while next < component.len() {
                let cell = component[next];
                let mine = colour[cell] == Some(true);
                for &other in &links[cell] {
                    if colour[other].is_none() {
                        colour[other] = Some(!mine);
                        component.push(other);
                    }
                }
                next += 1;
            }
            component.sort_unstable();
            let coloured = |want: bool| -> Vec<usize> {
                component.iter().copied().filter(|&c| colour[c] == Some(want)).collect()
            };
            let (blue, green) = (coloured(false), coloured(true));
            for (same, name) in [(&blue, "first"), (&green, "second")] {
                let clash = same.iter().copied().tuple_combinations().find(|&(a, b)| grid.sees(a, b));
                if let Some((a, b)) = clash {
                    let eliminations = same.iter().map(|&c| (c, digit)).collect();
                    let sentence = format!(
                        "{technique}: the strong links of {} through {} alternate in two colours, one of which holds {}; {} and {} have the {name} colour and see each other, so that colour is false and {} leaves {}.",
                        symbol(digit),
                        grid.cell_names(&component),
                        symbol(digit),
                        grid.cell_name(a),
                        grid.cell_name(b),
                        symbol(digit),
                        grid.cell_names(same)
                    );
                    return Some(Step::new(technique, component.clone(), smallvec![digit], Vec::new(), eliminations, sentence));
                }
            }
            let eliminations: Vec<(usize, u8)> = (0..grid.candidates.len())
                .filter(|&c| grid.has(c, digit) && colour[c].is_none())
                .filter(|&c| blue.iter().any(|&b| grid.sees(c, b)) && green.iter().any(|&g| grid.sees(c, g)))
                .map(|c| (c, digit))
                .collect();
            if eliminations.is_empty() {
                return None;
            }
            let trapped: Vec<usize> = eliminations.iter().map(|&(c, _)| c).collect();
            let sentence = format!(
                "{technique}: the strong links of {} through {} alternate in two colours, one of which holds {}; {} see both colours, so {} leaves them.",
                symbol(digit),
                grid.cell_names(&component),
                symbol(digit),
                grid.cell_names(&trapped),
                symbol(digit)
            );
            Some(Step::new(technique, component.clone(), smallvec![digit], Vec::new(), eliminations, sentence))
        })
    })
}

/// The longest X-chain looked for, in links.
const LONGEST_CHAIN: usize = 15;

/// A chain of cells holding `digit`, from a strong link, alternating weak
/// and strong links, to a strong link: one of its two ends holds the
/// digit, so no cell that sees both ends can.
pub(super) fn x_chain(grid: &Grid, digits: u32) -> Option<Step> {
    super::grid::digits(digits & grid.geometry().full).find_map(|digit| {
        let links = strong_links(grid, digit);
        let cells = links.len();
        (0..cells).filter(|&c| !links[c].is_empty()).find_map(|start| {
            // State `cell * 2 + 1`: reached by a strong link; `cell * 2`: by a weak one.
            let mut parent: Vec<Option<usize>> = vec![None; cells * 2];
            let mut depth = vec![0usize; cells * 2];
            let mut queue = VecDeque::new();
            for &first in &links[start] {
                parent[first * 2 + 1] = Some(start * 2);
                depth[first * 2 + 1] = 1;
                queue.push_back(first * 2 + 1);
            }
            while let Some(state) = queue.pop_front() {
                let (cell, strong) = (state / 2, state % 2 == 1);
                if strong && depth[state] >= 3 {
                    if let Some(step) = chain_step(grid, digit, start, state, &parent) {
                        return Some(step);
                    }
                }
                if depth[state] >= LONGEST_CHAIN {
                    continue;
                }
                let next: Vec<usize> = if strong {
                    grid.peers(cell).filter(|&p| grid.has(p, digit)).map(|p| p * 2).collect()
                } else {
                    links[cell].iter().map(|&p| p * 2 + 1).collect()
                };
                for following in next {
                    if following / 2 != start && parent[following].is_none() {
                        parent[following] = Some(state);
                        depth[following] = depth[state] + 1;
                        queue.push_back(following);
                    }
                }
            }
            None
        })
    })
}

/// The step of the chain from `start` to `end_state`, if its cells are
/// distinct and some cell sees both ends.
fn chain_step(grid: &Grid, digit: u8, start: usize, end_state: usize, parent: &[Option<usize>]) -> Option<Step> {
    let mut chain = vec![end_state / 2];
    let mut state = end_state;
    // The start's own state has no parent: no link leads back to it.
    while let Some(previous) = parent[state] {
        chain.push(previous / 2);
        state = previous;
    }
    chain.reverse();
    let mut sorted = chain.clone();
    sorted.sort_unstable();
    sorted.dedup();
    if sorted.len() != chain.len() {
        return None;
    }
    let end = end_state / 2;
    let eliminations: Vec<(usize, u8)> = grid
        .peers(start)
        .filter(|&c| grid.has(c, digit) && !chain.contains(&c) && grid.sees(c, end))
        .map(|c| (c, digit))
        .collect();
    if eliminations.is_empty() {
        return None;
    }
    let removed: Vec<usize> = eliminations.iter().map(|&(c, _)| c).collect();
    let links: Vec<String> = chain
        .iter()
        .enumerate()
        .map(|(i, &c)| {
            let name = grid.cell_name(c);
            match i {
                0 => name.to_string(),
                _ if i % 2 == 1 => format!("={name}"),
                _ => format!("-{name}"),
            }
        })
        .collect();
    let sentence = format!(
        "{}: on {}, {} (= a strong link, - a weak one): one end holds {}, so it leaves {}, which see both ends.",
        Technique::XChain,
        symbol(digit),
        links.concat(),
        symbol(digit),
        grid.cell_names(&removed)
    );
    Some(Step::new(Technique::XChain, chain, smallvec![digit], Vec::new(), eliminations, sentence))
}
