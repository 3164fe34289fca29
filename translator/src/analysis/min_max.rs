//! H047: `min`/`max` calls that HIP resolves to another overload than CUDA does.
//!
//! CUDA declares `min` and `max` for every arithmetic type and for mixed signedness, on host and
//! device (`unsigned int min(int, unsigned int)` compares as unsigned). HIP's host side has
//! `min(int, int)` only, so float and 64-bit arguments are converted to `int`; its device side
//! sends two arguments of different types to a template that computes in `double`. Both compile
//! without a word. The rule infers the arguments' types from declarations, literals and casts,
//! picks CUDA's overload, and reports the calls where HIP's result differs.

use tree_sitter::Node;

use super::Analyzer;
use crate::diag::Severity;
use crate::edit::Edit;
use crate::parse::{Field, KindName, FIELDS};

/// An arithmetic type as overload resolution sees it (integers after promotion).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Arith {
    /// `rank`: 0 `int` (and anything narrower), 1 `long`, 2 `long long`.
    Int {
        rank: u8,
        unsigned: bool,
    },
    Float,
    Double,
}

impl Arith {
    /// The type's C name, for messages and fixes when the code gives no spelling.
    fn canonical(self) -> &'static str {
        match self {
            Arith::Int {
                rank: 0,
                unsigned: false,
            } => "int",
            Arith::Int {
                rank: 0,
                unsigned: true,
            } => "unsigned int",
            Arith::Int {
                rank: 1,
                unsigned: false,
            } => "long",
            Arith::Int {
                rank: 1,
                unsigned: true,
            } => "unsigned long",
            Arith::Int {
                unsigned: false, ..
            } => "long long",
            Arith::Int { unsigned: true, .. } => "unsigned long long",
            Arith::Float => "float",
            Arith::Double => "double",
        }
    }

    fn is_signed_int(self) -> bool {
        matches!(
            self,
            Arith::Int {
                unsigned: false,
                ..
            }
        )
    }
}

/// A typed argument: its type and how the code spells it (a typedef such as `size_t` stays).
#[derive(Clone, Debug)]
struct Typed {
    ty: Arith,
    spelled: String,
}

impl Typed {
    fn canonical(ty: Arith) -> Self {
        Typed {
            ty,
            spelled: ty.canonical().to_string(),
        }
    }
}

/// The arithmetic type a declared type names (qualifiers dropped), if it is one.
fn arith_of_type(text: &str) -> Option<Typed> {
    let mut t = text.trim();
    loop {
        let before = t;
        for q in [
            "const ",
            "volatile ",
            "static ",
            "register ",
            "constexpr ",
            "std::",
        ] {
            t = t.strip_prefix(q).unwrap_or(t).trim_start();
        }
        if t == before {
            break;
        }
    }
    let t = t.strip_suffix(" const").unwrap_or(t);
    let int = |rank, unsigned| Some(Arith::Int { rank, unsigned });
    let ty = match t {
        "int" | "signed" | "signed int" | "short" | "short int" | "signed short"
        | "unsigned short" | "unsigned short int" | "char" | "signed char" | "unsigned char"
        | "bool" | "int8_t" | "uint8_t" | "int16_t" | "uint16_t" | "int32_t" => int(0, false),
        "unsigned" | "unsigned int" | "uint32_t" | "uint" => int(0, true),
        "long" | "long int" | "signed long" | "int64_t" | "ptrdiff_t" | "ssize_t" | "intptr_t" => {
            int(1, false)
        }
        "unsigned long" | "unsigned long int" | "uint64_t" | "size_t" | "uintptr_t" => int(1, true),
        "long long" | "long long int" | "signed long long" => int(2, false),
        "unsigned long long" | "unsigned long long int" => int(2, true),
        "float" => Some(Arith::Float),
        "double" => Some(Arith::Double),
        _ => None,
    }?;
    Some(Typed {
        ty,
        spelled: t.to_string(),
    })
}

/// The element type of a CUDA vector type (`uint2` → `unsigned int`, `dim3` → `unsigned int`),
/// so that `p.x` of a `uint2 p` is typed as CUDA's headers declare it.
fn vector_element(text: &str) -> Option<&'static str> {
    let mut t = text.trim();
    while let Some(rest) = t
        .strip_prefix("const ")
        .or_else(|| t.strip_prefix("volatile "))
    {
        t = rest.trim_start();
    }
    let t = t.strip_suffix(" const").unwrap_or(t);
    if t == "dim3" {
        return Some("unsigned int");
    }
    let base = t.strip_suffix(['1', '2', '3', '4'])?;
    Some(match base {
        "uint" => "unsigned int",
        "int" => "int",
        "uchar" => "unsigned char",
        "char" => "signed char",
        "ushort" => "unsigned short",
        "short" => "short",
        "ulong" => "unsigned long",
        "long" => "long",
        "ulonglong" => "unsigned long long",
        "longlong" => "long long",
        "float" => "float",
        "double" => "double",
        _ => return None,
    })
}

/// A declared type's struct name: qualifiers and a leading `struct`/`class` dropped.
fn struct_name(ty: &str) -> &str {
    let mut t = ty.trim();
    loop {
        let before = t;
        for q in ["const ", "volatile ", "struct ", "class "] {
            t = t.strip_prefix(q).unwrap_or(t).trim_start();
        }
        if t == before {
            break;
        }
    }
    t.strip_suffix(" const").unwrap_or(t)
}

/// The type of scalar member `member` of CUDA's `cudaDeviceProp` (or HIP's `hipDeviceProp_t`),
/// as CUDA's driver_types.h and HIP's hip_runtime_api.h declare both: the sizes in bytes are
/// `size_t`, the counts, rates and flags `int` (`multiProcessorCount`, `maxThreadsPerBlock`).
/// Arrays (`maxGridSize`), strings and the members named in neither list are not typed.
fn device_prop_member(owner: &str, member: &str) -> Option<&'static str> {
    if !(owner == "cudaDeviceProp" || owner.starts_with("hipDeviceProp_t")) {
        return None;
    }
    const SIZES: &[&str] = &[
        "totalGlobalMem",
        "sharedMemPerBlock",
        "memPitch",
        "totalConstMem",
        "textureAlignment",
        "texturePitchAlignment",
        "surfaceAlignment",
        "sharedMemPerMultiprocessor",
        "sharedMemPerBlockOptin",
        "reservedSharedMemPerBlock",
        "maxSharedMemoryPerMultiProcessor",
    ];
    const INTS: &[&str] = &[
        "regsPerBlock",
        "warpSize",
        "maxThreadsPerBlock",
        "clockRate",
        "major",
        "minor",
        "deviceOverlap",
        "multiProcessorCount",
        "kernelExecTimeoutEnabled",
        "integrated",
        "canMapHostMemory",
        "computeMode",
        "concurrentKernels",
        "ECCEnabled",
        "pciBusID",
        "pciDeviceID",
        "pciDomainID",
        "tccDriver",
        "asyncEngineCount",
        "unifiedAddressing",
        "memoryClockRate",
        "memoryBusWidth",
        "l2CacheSize",
        "persistingL2CacheMaxSize",
        "maxThreadsPerMultiProcessor",
        "streamPrioritiesSupported",
        "globalL1CacheSupported",
        "localL1CacheSupported",
        "regsPerMultiprocessor",
        "managedMemory",
        "isMultiGpuBoard",
        "multiGpuBoardGroupID",
        "pageableMemoryAccess",
        "concurrentManagedAccess",
        "cooperativeLaunch",
        "cooperativeMultiDeviceLaunch",
        "maxBlocksPerMultiProcessor",
        "accessPolicyMaxWindowSize",
        "clockInstructionRate",
    ];
    if SIZES.contains(&member) {
        Some("size_t")
    } else if INTS.contains(&member) {
        Some("int")
    } else {
        None
    }
}

/// The type of scalar member `member` of the file's struct or class `owner` (`struct P { int m;
/// };`, or `typedef struct { int m; } P;`), where every such declaration agrees on it.
fn struct_member(a: &Analyzer, owner: &str, member: &str) -> Option<Typed> {
    let decls = a.decls.get(member)?;
    let mut found: Option<Typed> = None;
    for d in decls.iter() {
        if d.decl.kind_name() != "field_declaration" || d.pointer || !d.dims.is_empty() {
            continue;
        }
        let Some(spec) = d.decl.parent().and_then(|l| l.parent()) else {
            continue;
        };
        let name = match spec.field(FIELDS.name) {
            Some(name) => a.text(name),
            // `typedef struct { ... } P;`
            None => match spec.parent().filter(|t| t.kind_name() == "type_definition") {
                Some(t) => t.field(FIELDS.declarator).map_or("", |x| a.text(x)),
                None => "",
            },
        };
        if name != owner {
            continue;
        }
        let ty = arith_of_type(&d.ty_text)?;
        if found.as_ref().is_some_and(|f| f.ty != ty.ty) {
            return None;
        }
        found = Some(ty);
    }
    found
}

/// The type of a numeric literal (C's rules: an unsuffixed decimal is `int` while it fits).
fn literal_type(text: &str) -> Option<Arith> {
    let t: String = text
        .chars()
        .filter(|&c| c != '\'' && !c.is_whitespace())
        .collect();
    let t = t.trim_start_matches(['-', '+']).to_ascii_lowercase();
    let hex = t.starts_with("0x");
    if !hex && (t.contains(['.', 'e']) || t.ends_with('f')) {
        return Some(if t.ends_with('f') {
            Arith::Float
        } else {
            Arith::Double
        });
    }
    if hex && t.contains(['.', 'p']) {
        return None;
    }
    let body = t.trim_end_matches(['u', 'l']);
    let suffix = &t[body.len()..];
    let unsigned = suffix.contains('u');
    let longs = suffix.matches('l').count() as u8;
    let (value, _) = super::eval::parse_int(body)?;
    let octal_or_hex = hex || (body.len() > 1 && body.starts_with('0'));
    let rank = if longs > 0 {
        longs.min(2)
    } else if value <= i32::MAX as u64 || (unsigned || octal_or_hex) && value <= u32::MAX as u64 {
        0
    } else {
        1
    };
    let unsigned = unsigned || octal_or_hex && longs == 0 && rank == 0 && value > i32::MAX as u64;
    Some(Arith::Int { rank, unsigned })
}

/// The body of object-like macro `name` of the file, trimmed, where it is one number literal.
fn macro_literal<'s>(a: &Analyzer<'s, '_>, name: &str) -> Option<&'s str> {
    let m = a.macros.get(name).filter(|m| !m.function_like)?;
    let body = std::str::from_utf8(a.src.get(m.body_range.clone())?)
        .ok()?
        .trim();
    literal_type(body).is_some().then_some(body)
}

/// Whether `n` is a literal that is zero or more (its conversion to unsigned keeps the value).
fn non_negative_literal(a: &Analyzer, n: Node) -> bool {
    match n.kind_name() {
        "number_literal" => !a.text(n).trim_start().starts_with('-'),
        "char_literal" | "true" | "false" | "sizeof_expression" => true,
        "parenthesized_expression" => n.named_child(0).is_some_and(|c| non_negative_literal(a, c)),
        // `#define BOX 1024`, as the literal it stands for.
        "identifier" => {
            a.lookup(a.text(n), n.start_byte()).is_none()
                && macro_literal(a, a.text(n)).is_some_and(|t| !t.starts_with('-'))
        }
        _ => false,
    }
}

/// C's usual arithmetic conversions (for an LP64 target).
fn usual(x: Arith, y: Arith) -> Arith {
    match (x, y) {
        (Arith::Double, _) | (_, Arith::Double) => Arith::Double,
        (Arith::Float, _) | (_, Arith::Float) => Arith::Float,
        (
            Arith::Int {
                rank: r1,
                unsigned: u1,
            },
            Arith::Int {
                rank: r2,
                unsigned: u2,
            },
        ) => {
            if u1 == u2 {
                return Arith::Int {
                    rank: r1.max(r2),
                    unsigned: u1,
                };
            }
            let (ru, rs) = if u1 { (r1, r2) } else { (r2, r1) };
            if ru >= rs {
                Arith::Int {
                    rank: ru,
                    unsigned: true,
                }
            } else if ru == 0 {
                // `long` holds every `unsigned int`.
                Arith::Int {
                    rank: rs,
                    unsigned: false,
                }
            } else {
                Arith::Int {
                    rank: rs,
                    unsigned: true,
                }
            }
        }
    }
}

/// The type of integer expression `n` as C spells it, where it is 32 bits or narrower and
/// declarations, literals and casts decide it: `unsigned int` for `(1U << n) - 1` (H003: HIP's
/// `_sync` builtins static_assert a 64-bit mask, realuser29 R29-a).
pub(super) fn narrow_int_type(a: &Analyzer, n: Node) -> Option<String> {
    let t = type_of(a, n, 0)?;
    matches!(t.ty, Arith::Int { rank: 0, .. }).then_some(t.spelled)
}

/// The type of expression `n`, when declarations, literals and casts decide it.
fn type_of(a: &Analyzer, n: Node, depth: u8) -> Option<Typed> {
    if depth > 12 {
        return None;
    }
    match n.kind_name() {
        "number_literal" => literal_type(a.text(n)).map(Typed::canonical),
        "char_literal" | "true" | "false" => Some(Typed::canonical(Arith::Int {
            rank: 0,
            unsigned: false,
        })),
        "sizeof_expression" => Some(Typed {
            ty: Arith::Int {
                rank: 1,
                unsigned: true,
            },
            spelled: "size_t".into(),
        }),
        "identifier" => {
            let name = a.text(n);
            if name == "warpSize" {
                return Some(Typed::canonical(Arith::Int {
                    rank: 0,
                    unsigned: false,
                }));
            }
            let Some(d) = a.lookup(name, n.start_byte()) else {
                // An object-like macro whose body is one literal (`#define BOX 1024`) has the
                // literal's type.
                return literal_type(macro_literal(a, name)?).map(Typed::canonical);
            };
            if d.pointer || !d.dims.is_empty() {
                return None;
            }
            arith_of_type(&d.ty_text)
        }
        "subscript_expression" => {
            let b = n
                .field(FIELDS.argument)
                .filter(|b| b.kind_name() == "identifier")?;
            let d = a.lookup(a.text(b), b.start_byte())?;
            // One level of indexing into a pointer or a one-dimensional array.
            if usize::from(d.pointer) + d.dims.len() != 1 {
                return None;
            }
            arith_of_type(&d.ty_text)
        }
        "field_expression" => {
            let obj = n.field(FIELDS.argument)?;
            let member = n.field(FIELDS.field).map(|f| a.text(f));
            if matches!(member, Some("x" | "y" | "z" | "w"))
                && matches!(
                    a.text(obj),
                    "threadIdx" | "blockIdx" | "blockDim" | "gridDim"
                )
            {
                return (member != Some("w")).then(|| {
                    Typed::canonical(Arith::Int {
                        rank: 0,
                        unsigned: true,
                    })
                });
            }
            // A member of a variable: of a vector (`uint2 p; p.x`), the vector's element type;
            // of CUDA's device properties or a struct of the file, the member's declared type.
            if obj.kind_name() != "identifier" {
                return None;
            }
            let d = a.lookup(a.text(obj), obj.start_byte())?;
            let arrow = a.src[obj.end_byte()..n.field(FIELDS.field)?.start_byte()].contains(&b'>');
            if d.pointer != arrow || !d.dims.is_empty() {
                return None;
            }
            let member = member?;
            let owner = struct_name(&d.ty_text);
            if !arrow && matches!(member, "x" | "y" | "z" | "w") {
                if let Some(elem) = vector_element(&d.ty_text) {
                    return arith_of_type(elem);
                }
            }
            arith_of_type(device_prop_member(owner, member).unwrap_or(""))
                .or_else(|| struct_member(a, owner, member))
        }
        "cast_expression" => n
            .field(FIELDS.type_)
            .and_then(|t| arith_of_type(&super::norm_ws(a.text(t)))),
        "call_expression" => {
            // `static_cast<T>(x)`, or a nested `min`/`max` (of CUDA's overload type).
            let f = n.field(FIELDS.function)?;
            if f.kind_name() == "identifier" && matches!(a.text(f), "min" | "max") {
                let list = n.field(FIELDS.arguments)?;
                let mut args =
                    crate::parse::named_children(list).filter(|c| c.kind_name() != "comment");
                let (x, y) = (args.next()?, args.next()?);
                if args.next().is_some() {
                    return None;
                }
                return cuda_overload(&type_of(a, x, depth + 1)?, &type_of(a, y, depth + 1)?);
            }
            if f.kind_name() != "template_function"
                || f.field(FIELDS.name).map(|x| a.text(x)) != Some("static_cast")
            {
                return None;
            }
            let ty = f.field(FIELDS.arguments)?.named_child(0)?;
            arith_of_type(&super::norm_ws(a.text(ty)))
        }
        "parenthesized_expression" => type_of(a, n.named_child(0)?, depth + 1),
        "unary_expression" => {
            let op = n.field(FIELDS.operator).map(|o| a.text(o))?;
            let x = type_of(a, n.field(FIELDS.argument)?, depth + 1)?;
            match op {
                "!" => Some(Typed::canonical(Arith::Int {
                    rank: 0,
                    unsigned: false,
                })),
                "-" | "+" | "~" => Some(x),
                _ => None,
            }
        }
        "binary_expression" => {
            let op = n.field(FIELDS.operator).map(|o| a.text(o))?;
            match op {
                "==" | "!=" | "<" | ">" | "<=" | ">=" | "&&" | "||" => {
                    Some(Typed::canonical(Arith::Int {
                        rank: 0,
                        unsigned: false,
                    }))
                }
                "+" | "-" | "*" | "/" | "%" | "&" | "|" | "^" => {
                    let l = type_of(a, n.field(FIELDS.left)?, depth + 1)?;
                    let r = type_of(a, n.field(FIELDS.right)?, depth + 1)?;
                    let ty = usual(l.ty, r.ty);
                    Some(if l.ty == ty {
                        l
                    } else if r.ty == ty {
                        r
                    } else {
                        Typed::canonical(ty)
                    })
                }
                "<<" | ">>" => type_of(a, n.field(FIELDS.left)?, depth + 1),
                _ => None,
            }
        }
        _ => None,
    }
}

/// The overload CUDA's `min`/`max` pick for two arguments, or None where CUDA has no single
/// best one (mixed ranks, integers with floats: nvcc reports the call as ambiguous).
fn cuda_overload(x: &Typed, y: &Typed) -> Option<Typed> {
    match (x.ty, y.ty) {
        (a, b) if a == b => Some(x.clone()),
        (Arith::Float | Arith::Double, Arith::Float | Arith::Double) => {
            Some(if x.ty == Arith::Double { x } else { y }.clone())
        }
        (
            Arith::Int {
                rank: r1,
                unsigned: u1,
            },
            Arith::Int { rank: r2, .. },
        ) if r1 == r2 => Some(if u1 { x } else { y }.clone()),
        _ => None,
    }
}

/// Where a call sits: host code, device-only code, or both (`__host__ __device__`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Host,
    Device,
    Both,
}

fn side(a: &Analyzer, call: Node) -> Side {
    let func = a.func_at(call.start_byte());
    match func {
        Some(f) if f.device && f.maybe_host => return Side::Both,
        Some(f) if f.device => return Side::Device,
        _ => {}
    }
    // An extended lambda (`[=] __device__ (int i) { ... }`) inside a host function: only a host
    // function that names `__device__` can hold one, so the ancestors are read only then.
    let text = func.map_or("", |f| a.text(f.node));
    if !text.contains("__device__") {
        return Side::Host;
    }
    for n in crate::parse::ancestors(call).into_iter().rev() {
        if n.kind_name() == "lambda_expression" {
            let head = n
                .field(FIELDS.body)
                .map_or(n.byte_range(), |b| n.start_byte()..b.start_byte());
            let head = String::from_utf8_lossy(&a.src[head]);
            if head.contains("__device__") {
                return if head.contains("__host__") {
                    Side::Both
                } else {
                    Side::Device
                };
            }
        }
    }
    Side::Host
}

/// Whether the file brings another `min`/`max` into play: its own definition or macro, or
/// `std::min` through a using-directive (which wins where the argument types agree).
fn own_min_max(a: &Analyzer) -> bool {
    *a.own_min_max.get_or_init(|| {
        let text = a.src;
        let has = |needle: &[u8]| memchr::memmem::find(text, needle).is_some();
        if has(b"using namespace std") || has(b"using std::min") || has(b"using std::max") {
            return true;
        }
        if ["min", "max"].iter().any(|m| a.macros.get(m).is_some()) {
            return true;
        }
        a.funcs
            .iter()
            .any(|f| matches!(a.function_name(f.node), Some("min" | "max")))
    })
}

/// Whether function definition `def` is called in the file, and only from device code: from
/// `__device__`/`__global__` functions, or from `__host__ __device__` ones that are themselves
/// called only there. Any other use of its name (a host caller, a function pointer, a call at
/// file scope) answers no, and so does a function the file never calls (a header's helper, whose
/// callers are elsewhere).
fn only_device_callers(a: &Analyzer, def: Node, depth: u8) -> bool {
    let Some(name) = a.function_name(def) else {
        return false;
    };
    if depth > 3 {
        return false;
    }
    let mut root = def;
    while let Some(p) = root.parent() {
        root = p;
    }
    let mut called = false;
    for at in crate::lexer::whole_words(a.src, name) {
        if def.byte_range().contains(&at) {
            // Its own name, or a recursive call.
            continue;
        }
        let Some(id) = root.descendant_for_byte_range(at, at + name.len()) else {
            return false;
        };
        if matches!(
            id.kind_name(),
            "comment" | "string_literal" | "string_content"
        ) {
            continue;
        }
        let mut callee = id;
        while let Some(p) = callee
            .parent()
            .filter(|p| matches!(p.kind_name(), "template_function" | "qualified_identifier"))
        {
            callee = p;
        }
        let parent = callee.parent();
        // A prototype (`__host__ __device__ float f(float);`) declares; it calls nothing.
        if parent.is_some_and(|p| p.kind_name() == "function_declarator") {
            continue;
        }
        let is_call = parent.is_some_and(|p| {
            p.kind_name() == "call_expression" && p.field(FIELDS.function) == Some(callee)
        });
        let device = match a.func_at(at) {
            Some(f) if f.device && !f.maybe_host => true,
            Some(f) if f.device => only_device_callers(a, f.node, depth + 1),
            _ => false,
        };
        if !is_call || !device {
            return false;
        }
        called = true;
    }
    called
}

/// Who besides the file's own code can call the function defined at `def` (R26-2 and the
/// verifier's case of a helper declared in a header and called on the host by another file).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Reach {
    /// `static`, or in an unnamed namespace: only this file calls it.
    ThisFile,
    /// `inline`, `constexpr` or a template: every file that includes this one may call it.
    Includers,
    /// External linkage: any file of the program may call it, and headers may declare it.
    Program,
}

/// How far calls of the function defined at `def` can come from, read from its specifiers.
fn reach(a: &Analyzer, def: Node) -> Reach {
    // `static` and an unnamed namespace keep the helper to the file that compiles it: this one,
    // or each file that includes this header, which may call its copy on the host (verify10).
    let mut up = def.parent();
    while let Some(p) = up {
        if p.kind_name() == "namespace_definition" && p.field(FIELDS.name).is_none() {
            return Reach::Includers;
        }
        up = p.parent();
    }
    let head_end = def
        .field(FIELDS.declarator)
        .map_or(def.start_byte(), |d| d.start_byte());
    let head = a.src.get(def.start_byte()..head_end).unwrap_or_default();
    let words = || {
        head.split(|b: &u8| !(b.is_ascii_alphanumeric() || *b == b'_'))
            .filter(|w| !w.is_empty())
    };
    if words().any(|w| w == b"static") {
        return Reach::Includers;
    }
    let template = def
        .parent()
        .is_some_and(|p| p.kind_name() == "template_declaration");
    let inline = words().any(|w| {
        matches!(
            w,
            b"inline" | b"__inline__" | b"__forceinline__" | b"__forceinline" | b"constexpr"
        )
    });
    if template || inline {
        Reach::Includers
    } else {
        Reach::Program
    }
}

/// Whether `file` is a header, which other files include (and so call what it defines).
fn header_file(file: &str) -> bool {
    let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(
        ext,
        "h" | "hh" | "hpp" | "hxx" | "cuh" | "inl" | "cuinl" | "tcc"
    )
}

/// Whether host compilers (not hipcc) build the file: CUDA's host `min` is not theirs either.
fn host_compiled(file: &str) -> bool {
    let ext = file.rsplit_once('.').map_or("", |(_, e)| e);
    matches!(ext, "c" | "cc" | "cpp" | "cxx" | "C" | "c++")
}

/// H047 for the call `n` of `name` (`min` or `max`) with arguments `argv`.
pub(super) fn check(a: &mut Analyzer, n: Node, name: &str, argv: &[Node]) {
    let [x, y] = argv else { return };
    let Some(f) = n.field(FIELDS.function) else {
        return;
    };
    // `min(a, b)` or `::min(a, b)`; not `std::min`, `min<T>` or a method.
    let global = match f.kind_name() {
        "identifier" => true,
        "qualified_identifier" => f.field(FIELDS.scope).is_none(),
        _ => false,
    };
    if !global || a.in_macro.is_some() {
        return;
    }
    let (Some(tx), Some(ty)) = (type_of(a, *x, 0), type_of(a, *y, 0)) else {
        return;
    };
    let Some(cuda) = cuda_overload(&tx, &ty) else {
        return;
    };
    if own_min_max(a) {
        return;
    }
    let side = side(a, n);
    let int = Arith::Int {
        rank: 0,
        unsigned: false,
    };
    let t = cuda.spelled.as_str();
    if side != Side::Device && cuda.ty != int && !host_compiled(a.file) {
        let (mut severity, what) = match cuda.ty {
            Arith::Float => (Severity::Error, format!("`{name}(0.5f, 0.7f)` returns 0")),
            Arith::Double => (Severity::Error, format!("`{name}(0.5, 0.7)` returns 0")),
            Arith::Int { rank: 0, .. } => (
                Severity::Warning,
                "values above 2^31 - 1 turn negative".to_string(),
            ),
            Arith::Int { .. } => (
                Severity::Error,
                "64-bit values are truncated to 32 bits".to_string(),
            ),
        };
        let place = if side == Side::Both {
            "`__host__ __device__` code (its host side)"
        } else {
            "host code"
        };
        let mut message = format!("`{name}` on `{t}` in {place}: CUDA has a host `{name}` for `{t}`; HIP's only host `{name}` takes `int`, so both arguments become `int` and {what}");
        let mut fix = vec![Edit::replace(
            f.start_byte(),
            f.end_byte(),
            format!("std::{name}<{t}>"),
            "H047",
        )];
        // A helper that only device code calls never runs its host side (R26-2): a note where
        // no other file can call it, a warning where files that include this one can, and the
        // error where any file of the program can (a header may declare it for host code).
        let helper = a.func_at(n.start_byte()).filter(|_| side == Side::Both);
        if let Some(helper) = helper.filter(|h| only_device_callers(a, h.node, 0)) {
            let reach = match reach(a, helper.node) {
                Reach::Includers if !header_file(a.file) => Reach::ThisFile,
                r => r,
            };
            let helper = a.function_name(helper.node).unwrap_or("this function");
            match reach {
                Reach::ThisFile => {
                    severity = Severity::Note;
                    fix.clear();
                    message.push_str(&format!(
                        "; every call of `{helper}` in this file is in device code, and no other file can call it, so the host side does not run (it would for a host caller added later)"
                    ));
                }
                Reach::Includers => {
                    severity = Severity::Warning;
                    message.push_str(&format!(
                        "; every call of `{helper}` in this header is in device code, but a file that includes it may call it on the host"
                    ));
                }
                Reach::Program => {}
            }
        }
        a.report(
            &super::catalog::MIN_MAX_OVERLOAD,
            severity,
            n,
            message,
            Some(format!(
                "call `std::{name}<{t}>(...)`, which compiles on host and device"
            )),
            fix,
        );
        return;
    }
    if side == Side::Host || tx.ty == ty.ty {
        return;
    }
    // Device code: two different types go to HIP's `double` template.
    let Arith::Int {
        rank,
        unsigned: true,
    } = cuda.ty
    else {
        return;
    };
    let (signed, signed_ty) = if tx.ty.is_signed_int() {
        (*x, &tx)
    } else {
        (*y, &ty)
    };
    if non_negative_literal(a, signed) {
        return;
    }
    let s = &signed_ty.spelled;
    let wide = if rank > 0 {
        ", and 64-bit values above 2^53 are rounded"
    } else {
        ""
    };
    let fix = vec![
        Edit::insert(signed.start_byte(), format!("({t})("), "H047"),
        Edit::insert(signed.end_byte(), ")", "H047"),
    ];
    a.report(
        &super::catalog::MIN_MAX_OVERLOAD,
        Severity::Warning,
        n,
        format!("`{name}` of `{s}` and `{t}` in device code: CUDA compares both as `{t}`; HIP has no mixed overload and computes in `double`, so the result differs when the `{s}` is negative (and is a `double`){wide}"),
        Some(format!("convert the `{s}` argument: `({t})({})`", a.text(signed))),
        fix,
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::{analyze, AnalysisOptions};

    /// The (line, severity) of each H047 in `src`, analyzed as `t.cu`.
    fn h047(src: &str) -> Vec<(usize, Severity)> {
        h047_in(src, "t.cu")
    }

    /// The (line, severity) of each H047 in `src`, analyzed as `file`.
    fn h047_in(src: &str, file: &str) -> Vec<(usize, Severity)> {
        let tree = crate::parse::parse(src.as_bytes(), std::time::Duration::from_secs(5)).unwrap();
        analyze(src.as_bytes(), &tree, file, &AnalysisOptions::default())
            .into_iter()
            .filter(|d| d.id == "H047")
            .map(|d| (d.line, d.severity))
            .collect()
    }

    #[test]
    fn struct_members_have_their_declared_types() {
        // R26-d: cuda-samples dxtc's `min(blocks, 768 * deviceProp.multiProcessorCount)` with
        // `unsigned blocks` is `min(unsigned, int)`: HIP's host `min(int, int)` turns 3e9 negative.
        let src = "struct P { int m; unsigned u; float f; };\n\
                   typedef struct { int n; } Q;\n\
                   int main() {\n\
                     unsigned blocks = 3000000000u; P p{5, 1, 0.5f}; Q q{2}; P* pp = &p;\n\
                     cudaDeviceProp prop; hipDeviceProp_t hp; const cudaDeviceProp* cp = &prop;\n\
                     int a = min(blocks, 768 * prop.multiProcessorCount);\n\
                     int b = min(blocks, p.m);\n\
                     int c = min(blocks, q.n);\n\
                     int d = min(blocks, pp->m);\n\
                     int e = min(blocks, cp->maxThreadsPerBlock);\n\
                     int f = min(blocks, hp.warpSize);\n\
                     size_t g = min(prop.sharedMemPerBlock, (size_t)4096);\n\
                     int h = min(p.m, prop.major);\n\
                     int i = min(p.m, 5);\n\
                     int j = min(blocks, prop.name);\n\
                     float k = max(p.f, 1.0f);\n\
                     return a + b + c + d + e + f + g + h + i + j + k;\n\
                   }\n";
        let w = Severity::Warning;
        assert_eq!(
            h047(src),
            vec![
                (6, w),
                (7, w),
                (8, w),
                (9, w),
                (10, w),
                (11, w),
                (12, Severity::Error),
                (16, Severity::Error)
            ]
        );
    }

    #[test]
    fn host_side_of_a_helper_only_device_code_calls_is_a_note() {
        // R26-2: cuda-samples dxtc's `__host__ __device__` firstEigenVector, called only by a
        // `__device__` function that kernels call, never runs `max(float, float)` on the host.
        let helper = "inline __host__ __device__ float big(float a, float b, float c) { return max(max(a, b), c); }\n";
        let device = "/* big(x) */ __host__ __device__ float big(float, float, float);\n\
                      __device__ float mid(float* p) { return big(p[0], p[1], p[2]); }\n\
                      inline __host__ __device__ float both(float* p) { return big(p[0], p[1], 0.f); }\n\
                      __global__ void k(float* p) { p[threadIdx.x] = big(p[0], p[1], p[2]) + mid(p) + both(p); }\n";
        let src = format!("{helper}{device}");
        let got = h047(&src);
        assert!(!got.is_empty());
        assert!(
            got.iter().all(|&(l, s)| l == 1 && s == Severity::Note),
            "{got:?}"
        );
        let tree = crate::parse::parse(src.as_bytes(), std::time::Duration::from_secs(5)).unwrap();
        let opts = AnalysisOptions {
            fix: true,
            ..AnalysisOptions::default()
        };
        let d = analyze(src.as_bytes(), &tree, "t.cu", &opts);
        let note = d.iter().find(|d| d.id == "H047").unwrap();
        assert!(note.fix.is_empty());
        assert!(note
            .message
            .contains("every call of `big` in this file is in device code"));
        // A host caller, a host caller of the `__host__ __device__` caller, a function pointer,
        // or no caller in the file at all (a header's helper): the host side may run.
        for more in [
            "float h(float* p) { return big(p[0], p[1], p[2]); }\n",
            "float h(float* p) { return both(p); }\n",
            "float (*fp)(float, float, float) = big;\n",
        ] {
            let src = format!("{helper}{device}{more}");
            let got = h047(&src);
            assert!(!got.is_empty());
            assert!(
                got.iter().all(|&(_, s)| s == Severity::Error),
                "{src}: {got:?}"
            );
        }
        assert!(h047(helper).iter().all(|&(_, s)| s == Severity::Error));
        assert!(!h047(helper).is_empty());
    }

    #[test]
    fn a_helper_other_files_can_call_keeps_its_host_side() {
        // The verifier's case: defined with external linkage in a .cu whose kernels call it, and
        // declared in a header that a host file includes and calls it through: the host side
        // runs, `max(0.5f, 0.7f)` gives 0 there. The error stays.
        let external = "__host__ __device__ float big(float a, float b) { return max(a, b); }
                        __global__ void k(float* p) { p[threadIdx.x] = big(p[0], p[1]); }
";
        let got = h047(external);
        assert_eq!(got, vec![(1, Severity::Error)]);
        // `static` or an unnamed namespace: no other file can call it.
        for private in [
            format!("static {external}"),
            format!(
                "namespace {{ {} }}
",
                external.lines().next().unwrap()
            ) + external.lines().nth(1).unwrap(),
        ] {
            assert_eq!(h047(&private), vec![(1, Severity::Note)], "{private}");
        }
        // An inline helper in a header: every includer may call it on the host.
        let inline = format!("inline {external}");
        assert_eq!(h047_in(&inline, "t.cuh"), vec![(1, Severity::Warning)]);
        assert_eq!(h047_in(&inline, "t.cu"), vec![(1, Severity::Note)]);
        // So does a `static` one, or one in an unnamed namespace, in a header (verify10): each
        // includer compiles its own copy and may call it on the host.
        let in_namespace = format!(
            "namespace {{ {} }}\n{}",
            external.lines().next().unwrap(),
            external.lines().nth(1).unwrap()
        );
        for private in [
            format!("static {external}"),
            format!("static inline {external}"),
            in_namespace,
        ] {
            assert_eq!(
                h047_in(&private, "t.cuh"),
                vec![(1, Severity::Warning)],
                "{private}"
            );
            assert_eq!(
                h047_in(&private, "t.cu"),
                vec![(1, Severity::Note)],
                "{private}"
            );
        }
    }

    #[test]
    fn literal_types_follow_c() {
        let int = |rank, unsigned| Some(Arith::Int { rank, unsigned });
        assert_eq!(literal_type("5"), int(0, false));
        assert_eq!(literal_type("5u"), int(0, true));
        assert_eq!(literal_type("5UL"), int(1, true));
        assert_eq!(literal_type("5ll"), int(2, false));
        assert_eq!(literal_type("0xffffffff"), int(0, true));
        assert_eq!(literal_type("4294967295"), int(1, false));
        assert_eq!(literal_type("-1"), int(0, false));
        assert_eq!(literal_type("0.5f"), Some(Arith::Float));
        assert_eq!(literal_type("1e3"), Some(Arith::Double));
        assert_eq!(literal_type("0x1f"), int(0, false));
    }

    #[test]
    fn cuda_picks_unsigned_for_mixed_signedness_and_nothing_for_mixed_ranks() {
        let t = |s: &str| arith_of_type(s).unwrap();
        let pick = |x: &str, y: &str| cuda_overload(&t(x), &t(y)).map(|c| c.spelled);
        assert_eq!(pick("int", "uint32_t").as_deref(), Some("uint32_t"));
        assert_eq!(pick("const size_t", "int64_t").as_deref(), Some("size_t"));
        assert_eq!(pick("float", "double").as_deref(), Some("double"));
        assert_eq!(pick("int", "long"), None);
        assert_eq!(pick("int", "float"), None);
        assert_eq!(usual(t("unsigned").ty, t("long").ty), t("long").ty);
        assert_eq!(
            usual(t("unsigned long").ty, t("long long").ty),
            t("unsigned long long").ty
        );
    }
}
