//! Compiles tdoku, when its sources are at hand, for the comparison only.
//!
//! The folder is `TDOKU_SRC`, or `../shared/peers/tdoku` beside the
//! repository. tdoku's files are compiled unchanged into this harness,
//! never into lazydoku. Without them the harness says so and skips tdoku.

use std::path::PathBuf;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(tdoku)");
    println!("cargo::rerun-if-env-changed=TDOKU_SRC");
    // `native` by default; another target (`x86-64-v3`, say) for a binary
    // carried to another machine.
    println!("cargo::rerun-if-env-changed=TDOKU_MARCH");
    let march = std::env::var("TDOKU_MARCH").unwrap_or_else(|_| "native".to_owned());
    let manifest = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").expect("cargo sets CARGO_MANIFEST_DIR"));
    let folder =
        std::env::var_os("TDOKU_SRC").map_or_else(|| manifest.join("../../../shared/peers/tdoku"), PathBuf::from);
    let solver = folder.join("solver_dpll_triad_simd.cc");
    println!("cargo::rerun-if-changed={}", solver.display());
    let compiler = std::env::var("CXX").unwrap_or_else(|_| {
        if std::process::Command::new("clang++").arg("--version").output().is_ok() {
            "clang++".to_owned()
        } else {
            // tdoku's own figures are clang's, and g++ builds it slower
            // (counting 2.98 M/s against 3.48 on one machine): said, as
            // the ratios are not comparable across compilers.
            println!(
                "cargo::warning=clang++ not found: tdoku is built with c++, which may make it slower than with \
                 clang (docs/performance.md)"
            );
            "c++".to_owned()
        }
    });
    println!("cargo::rustc-env=TDOKU_FOLDER={}", folder.display());
    if !solver.is_file() {
        println!("cargo::rustc-env=TDOKU_COMPILER=");
        println!("cargo::warning=tdoku not found at {} (set TDOKU_SRC): tdoku is skipped", folder.display());
        return;
    }
    cc::Build::new()
        .cpp(true)
        .compiler(&compiler)
        .file(&solver)
        .file(folder.join("util.cc"))
        .include(&folder)
        .flag("-std=c++14")
        .flag("-O3")
        .flag(format!("-march={march}"))
        .warnings(false)
        .compile("tdoku");
    println!("cargo::rustc-env=TDOKU_COMPILER={compiler} -march={march}");
    println!("cargo::rustc-cfg=tdoku");
}
