//! What a project header tells a file's analysis, however the build finds the header: through a
//! build file's include directory in a run that renames nothing (verify21 V21-f), and again after
//! the header or the build file changes, from the cache and from the run index.

use crate::common;

use std::path::Path;
use std::process::Command;

/// A 32-lane reduction whose launches take their block size from `cfg.h`'s `kBlock`.
const KERNEL: &str = "#include \"cfg.h\"\n\
__global__ void red(float *out, const float *in) {\n\
  float v = in[threadIdx.x];\n\
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffff, v, o);\n\
  if (threadIdx.x == 0) out[blockIdx.x] = v;\n\
}\n\
void run(float *o, const float *i, int n) { red<<<n, kBlock>>>(o, i); }\n";

/// Converts `dir/in` into `dir/out` (HIP 6.2, the cache in `dir/cache`, `args` added) and
/// returns the full mask that the translation of `src/k.cu` passes to the shuffle.
fn shuffle_mask(dir: &Path, args: &[&str]) -> String {
    let renamed = args.contains(&"--rename");
    let o = Command::new(env!("CARGO_BIN_EXE_hipport"))
        .args(["convert", "in", "--out", "out", "--force", "--quiet"])
        .args(["--hip-version", "6.2", "--cache-dir", "cache"])
        .args(args)
        .current_dir(dir)
        .output()
        .expect("hipport runs");
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let out_file = if renamed {
        "out/src/k.hip"
    } else {
        "out/src/k.cu"
    };
    let out = std::fs::read_to_string(dir.join(out_file)).expect("k.cu's output is written");
    let at = out.find("__shfl_xor_sync(").expect("the shuffle is kept") + 16;
    out[at..].split(',').next().unwrap().to_string()
}

/// Makes a file's modification time differ from the last run's stamp of it.
fn touch_later(path: &Path, text: &str) {
    std::thread::sleep(std::time::Duration::from_millis(1100));
    std::fs::write(path, text).unwrap();
}

/// A tree whose `src/k.cu` finds `include/cfg.h` only through the root CMakeLists.txt's
/// include directory, with `kBlock` = `block`.
fn cmake_tree(block: u32) -> tempfile::TempDir {
    let cfg = format!("#pragma once\nstatic const int kBlock = {block};\n");
    common::tree(&[
        (
            "in/CMakeLists.txt",
            "cmake_minimum_required(VERSION 3.18)\nproject(r LANGUAGES CXX CUDA)\n\
             include_directories(${CMAKE_SOURCE_DIR}/include)\nadd_subdirectory(src)\n",
        ),
        ("in/src/CMakeLists.txt", "add_library(r k.cu)\n"),
        ("in/src/k.cu", KERNEL),
        ("in/include/cfg.h", &cfg),
    ])
}

#[test]
fn a_header_found_through_cmake_include_directories_sizes_launches_without_rename() {
    // Blocks of 32 threads: a 64-lane wavefront holds one block, in lanes 0-31, so the mask
    // names those lanes (as with --rename hip, which reads the build files before the sources).
    for args in [&[][..], &["--rename", "hip"][..]] {
        let t = cmake_tree(32);
        let mask = shuffle_mask(t.path(), args);
        assert_eq!(mask, "0xffffffffull", "with {args:?}");
    }
}

#[test]
fn a_changed_header_constant_changes_the_cached_result() {
    let t = cmake_tree(32);
    assert_eq!(shuffle_mask(t.path(), &[]), "0xffffffffull");
    // 64-thread blocks fill a 64-lane wavefront: the widened full mask is right there.
    touch_later(
        &t.path().join("in/include/cfg.h"),
        "#pragma once\nstatic const int kBlock = 64;\n",
    );
    assert_eq!(shuffle_mask(t.path(), &[]), "0xffffffffffffffffull");
    // And back: the first result, from the cache, is right again.
    touch_later(
        &t.path().join("in/include/cfg.h"),
        "#pragma once\nstatic const int kBlock = 32;\n",
    );
    assert_eq!(shuffle_mask(t.path(), &[]), "0xffffffffull");
}

#[test]
fn a_build_file_that_drops_the_include_directory_is_seen_on_a_rerun() {
    let t = cmake_tree(32);
    assert_eq!(shuffle_mask(t.path(), &[]), "0xffffffffull");
    // The run index vouches for k.cu by its stamps: the build file's change must undo that.
    touch_later(
        &t.path().join("in/CMakeLists.txt"),
        "cmake_minimum_required(VERSION 3.18)\nproject(r LANGUAGES CXX CUDA)\nadd_subdirectory(src)\n",
    );
    assert_eq!(shuffle_mask(t.path(), &[]), "0xffffffffffffffffull");
}
