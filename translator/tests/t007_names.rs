//! T007's list of a header's names counts the names the code uses, not the headers the file
//! includes (verify20 V20-h: `<nppi_filtering_functions.h>` was listed as one of `npp.h`'s names).

use crate::common;

#[test]
fn an_included_header_path_is_not_one_of_the_names_used() {
    let (_, err, _) = common::cli_convert(
        &[(
            "k.cu",
            "#include <npp.h>\n#include <nppi_filtering_functions.h>\n#include <nvml.h>\n\
             void f() { nvmlInit(); }\n",
        )],
        &[],
    );
    let npp: Vec<&str> = err
        .lines()
        .filter(|l| l.contains("[T007]") && l.contains("`npp.h`"))
        .collect();
    assert_eq!(npp.len(), 1, "{err}");
    assert!(!npp[0].contains("nppi_filtering_functions"), "{err}");
    // A name the code does use is still listed.
    assert!(
        err.lines()
            .any(|l| l.contains("`nvml.h`") && l.contains("names: nvmlInit")),
        "{err}"
    );
}
