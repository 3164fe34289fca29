//! The committed generated files must be exactly what the generator makes from `../shared/data`.

use std::path::PathBuf;

use hipport_rules::data::DATA_FILES;

fn shared_data() -> Option<PathBuf> {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../shared/data");
    if dir.join("hipify-api-mappings.tsv").is_file() {
        return Some(dir);
    }
    if std::env::var("CI").as_deref() == Ok("true") {
        panic!(
            "{} is missing; CI must provide ../shared/data",
            dir.display()
        );
    }
    eprintln!(
        "skipping: {} is missing (set CI=true to make this a failure)",
        dir.display()
    );
    None
}

#[test]
fn generator_reproduces_committed_files() {
    let Some(dir) = shared_data() else { return };
    let generated = hipport_rules::generate::generate(&dir).expect("generator runs");
    let data = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("data");
    for (name, text) in &generated {
        let committed = std::fs::read_to_string(data.join(name))
            .unwrap_or_else(|e| panic!("cannot read committed rules/data/{name}: {e}"));
        assert!(
            committed == *text,
            "rules/data/{name} differs from the generator's output; run \
             `cargo run -p hipport-rules --bin generate-rules` and review the diff"
        );
    }
    let mut made: Vec<&str> = generated.iter().map(|(n, _)| n.as_str()).collect();
    let mut expected: Vec<&str> = DATA_FILES
        .iter()
        .filter(|f| f.generated)
        .map(|f| f.name)
        .collect();
    made.sort_unstable();
    expected.sort_unstable();
    assert_eq!(made, expected, "generated files and DATA_FILES disagree");
}

#[test]
fn generated_tables_keep_every_input_row() {
    let Some(dir) = shared_data() else { return };
    let generated = hipport_rules::generate::generate(&dir).expect("generator runs");
    let rows = |prefix: &str, skip: &[&str]| -> usize {
        generated
            .iter()
            .filter(|(n, _)| {
                n.ends_with(".tsv") && !skip.contains(&n.as_str()) && n.starts_with(prefix)
            })
            .map(|(_, t)| {
                t.lines()
                    .filter(|l| !l.starts_with('#') && !l.starts_with("cuda\t"))
                    .count()
            })
            .sum()
    };
    // Every API row and every header row of the HIPIFY tables, none dropped or merged.
    assert_eq!(
        rows(
            "",
            &[
                "headers.tsv",
                "hip-renamed.tsv",
                "torch-v1.tsv",
                "torch-v2.tsv"
            ]
        ),
        8932
    );
    assert_eq!(rows("headers.tsv", &[]), 60);
    let input_rows = std::fs::read_to_string(dir.join("hipify-api-mappings.tsv"))
        .unwrap()
        .lines()
        .count()
        - 1;
    assert_eq!(input_rows, 8932);
}

#[test]
fn torch_tables_leave_out_wrong_rules() {
    let Some(dir) = shared_data() else { return };
    let generated = hipport_rules::generate::generate(&dir).expect("generator runs");
    for (name, text) in generated.iter().filter(|(n, _)| n.starts_with("torch-")) {
        for bad in [
            "std::max",
            "std::ceil",
            "::ceil",
            "CUDA_VERSION",
            "\nHIP_CHECK\t",
            "\tCUDA_CHECK",
            "USE_CUDA",
            "MAX_NUM_BLOCKS",
            "CaffeHipGetDevice",
            "c10::hip::c10_hip_check_implementation",
        ] {
            assert!(!text.contains(bad), "{name} contains excluded rule `{bad}`");
        }
    }
    let v2 = &generated
        .iter()
        .find(|(n, _)| n == "torch-v2.tsv")
        .unwrap()
        .1;
    assert!(v2.contains("c10/cuda/CUDAGuard.h\tc10/hip/HIPGuard.h\t"));
    assert!(!v2.contains("MasqueradingAsCUDA"));
    let v1 = &generated
        .iter()
        .find(|(n, _)| n == "torch-v1.tsv")
        .unwrap()
        .1;
    assert!(v1.contains("\ngetCurrentCUDAStream\tgetCurrentHIPStreamMasqueradingAsCUDA\t"));
    assert!(v1.contains("\nc10/cuda/CUDAGuard.h\tATen/hip/impl/HIPGuardImplMasqueradingAsCUDA.h\t"));
}
