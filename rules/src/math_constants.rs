//! The values of CUDA's `math_constants.h` macros (`data/math-constants.tsv`), so that a report
//! of one a HIP release lacks (`CUDART_INF_F` becomes `HIP_INF_F` only from HIP 5.3.0) can name a
//! spelling that release compiles (G2).

/// The table, as written.
const TABLE: &str = include_str!("../data/math-constants.tsv");

/// A `math_constants.h` macro's value: its CUDA body and, where there is one, a standard
/// spelling of the same value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MathConstant {
    /// The CUDA name (`CUDART_INF_F`).
    pub cuda: &'static str,
    /// The body CUDA defines it as (`__int_as_float(0x7f800000U)`).
    pub value: &'static str,
    /// A standard spelling (`INFINITY`, `(float)M_PI`), usable in host code as well.
    pub std: Option<&'static str>,
    /// The standard header that declares it (`cmath`, `cfloat`).
    pub std_header: Option<&'static str>,
}

/// Every row of the table.
pub fn all() -> impl Iterator<Item = MathConstant> {
    TABLE
        .lines()
        .filter(|l| !l.starts_with('#') && !l.is_empty())
        .skip(1)
        .filter_map(|l| {
            let mut cols = l.split('\t');
            let cuda = cols.next()?;
            let value = cols.next()?;
            let std = cols.next().filter(|s| !s.is_empty());
            let std_header = cols.next().filter(|s| !s.is_empty());
            Some(MathConstant {
                cuda,
                value,
                std,
                std_header,
            })
        })
}

/// The row for `cuda`, if it is a `math_constants.h` macro.
pub fn lookup(cuda: &str) -> Option<MathConstant> {
    all().find(|c| c.cuda == cuda)
}
