//! Parsing with tree-sitter-cuda: one parser per thread, a time budget per file.

use std::cell::RefCell;
use std::ops::ControlFlow;
use std::time::{Duration, Instant};

use tree_sitter::{Language, Node, ParseOptions, ParseState, Parser, Tree};

mod statement_args;
mod statement_macros;

/// The grammar hipport parses with.
pub fn language() -> Language {
    tree_sitter_cuda::LANGUAGE.into()
}

thread_local! {
    static PARSER: RefCell<Option<Parser>> = const { RefCell::new(None) };
}

/// Parsing gave up.
#[derive(Debug, thiserror::Error)]
pub enum ParseError {
    /// The time budget ran out.
    #[error("parsing took longer than {0:?}; the file was skipped")]
    Timeout(Duration),
    /// tree-sitter returned no tree.
    #[error("the parser returned no tree")]
    NoTree,
}

/// Gives tree-sitter mimalloc's functions, once, before the first parser exists: its trees are
/// many small allocations made and freed on every thread, where glibc's malloc cost about 12% of
/// a parse and half of freeing a tree.
static ALLOCATOR: std::sync::Once = std::sync::Once::new();

fn install_allocator() {
    ALLOCATOR.call_once(|| {
        // SAFETY: every tree-sitter object of this process comes from a `Parser` made in
        // `parse` below, after this call; none exists yet, and `Once` runs it on one thread while
        // any other caller waits. mimalloc's four functions have C's contracts and free only
        // what they allocated.
        unsafe {
            tree_sitter::set_allocator(Some(tree_sitter::Allocator {
                malloc: libmimalloc_sys::mi_malloc,
                calloc: libmimalloc_sys::mi_calloc,
                realloc: libmimalloc_sys::mi_realloc,
                free: libmimalloc_sys::mi_free,
            }))
        }
    });
}

/// Parses `src`, giving up after `budget`. Where the first tree has errors and statement macros
/// without their `;` may explain them (see [`statement_macros`]), the text is parsed again with
/// those `;` shown, and the tree with fewer errors is kept.
pub fn parse(src: &[u8], budget: Duration) -> Result<Tree, ParseError> {
    parse_with_qualifiers(src, budget, b"")
}

/// [`parse`], knowing the qualifier macros that `headers` (`#define` lines, from the project
/// headers the file includes: DeepSpeed's `DS_D_INLINE`) define, as the file's own.
pub fn parse_with_qualifiers(
    src: &[u8],
    budget: Duration,
    headers: &[u8],
) -> Result<Tree, ParseError> {
    install_allocator();
    PARSER.with(|cell| {
        let mut slot = cell.borrow_mut();
        let parser = slot.get_or_insert_with(|| {
            let mut p = Parser::new();
            p.set_language(&language())
                .expect("tree-sitter-cuda ABI is compatible");
            p
        });
        let start = Instant::now();
        let shown = parseable(src, headers);
        let tree = parse_text(parser, &shown, start, budget)?;
        if !tree.root_node().has_error() {
            return Ok(tree);
        }
        let slots = statement_macros::semicolon_slots(&shown, &tree);
        let blocks = statement_args::block_edits(&shown, &tree);
        let typeids = typeid_of_types(&shown, &tree);
        let news = new_type_repairs(&shown, &tree);
        if slots.is_empty() && blocks.is_empty() && typeids.is_empty() && news.is_empty() {
            return Ok(tree);
        }
        let mut ended = shown.into_owned();
        for at in news {
            ended[at] = b' ';
        }
        for at in typeids {
            ended[at..at + b"sizeof".len()].copy_from_slice(b"sizeof");
        }
        for at in slots {
            if !blocks.iter().any(|b| b.span.contains(&at)) {
                ended[at] = b';';
            }
        }
        for (at, shown) in blocks.into_iter().flat_map(|b| b.edits) {
            ended[at] = shown;
        }
        match parse_text(parser, &ended, start, budget) {
            Ok(better) if error_count(&better) < error_count(&tree) => Ok(better),
            _ => Ok(tree),
        }
    })
}

/// Where `typeid` starts in the calls of `src` (as tree-sitter sees it, in `tree`) that take a
/// type tree-sitter cannot read as an expression: `typeid(double)`, `typeid(unsigned int)`,
/// `typeid(float*)` (realuser40 R40-3). tree-sitter-cuda has no `typeid`: it reads a call,
/// and a type as its argument is an error, which cost the whole statement a T008 note. Shown
/// as `sizeof`, which takes a type or an expression in the same parentheses, the statement
/// parses, and the names inside are renamed and checked as before. Only a call whose
/// arguments hold an error is shown so; `typeid(x)` of an expression parses as it is.
fn typeid_of_types(src: &[u8], tree: &Tree) -> Vec<usize> {
    if memchr::memmem::find(src, b"typeid").is_none() {
        return Vec::new();
    }
    let root = tree.root_node();
    crate::lexer::identifiers(src)
        .into_iter()
        .filter(|id| &src[id.clone()] == b"typeid")
        .filter(|id| src[id.end..].trim_ascii_start().starts_with(b"("))
        .filter_map(|id| {
            let name = root.descendant_for_byte_range(id.start, id.end)?;
            if name.kind() != "identifier" || name.byte_range() != id {
                return None;
            }
            let parent = name.parent()?;
            let broken = if parent.kind() == "call_expression" {
                parent.child_by_field_name("function") == Some(name)
                    && parent
                        .child_by_field_name("arguments")
                        .is_some_and(|a| a.has_error())
            } else {
                parent.is_error()
            };
            broken.then_some(id.start)
        })
        .collect()
}

/// The bytes to blank in the `new` expressions of `src` (as tree-sitter sees it, in `tree`)
/// whose type tree-sitter-cuda cannot read: the `*`s of a pointer type (`new cudaArray*[n]`,
/// `new int*[n]`, `new float**;`; realuser43 R43-3, TIGRE's per-GPU texture arrays) and the
/// `const`/`volatile` before a type (`new const char*[n]`). C++ takes any type there;
/// tree-sitter-cuda's `new` takes an unqualified type and array sizes only, so the statement
/// was an error and got a T008 note. Shown as blanks (`new cudaArray [n]`, same offsets), the
/// statement parses, and its names are renamed and checked as before; only the element type of
/// the allocation loses its pointer or qualifier, which nothing hipport reads asks about (the
/// declared variable keeps its own). Only where the allocation lies in a part of the tree with
/// an error; `new T[n]` and a product `a * b[n]` are left as they are.
fn new_type_repairs(src: &[u8], tree: &Tree) -> Vec<usize> {
    if memchr::memmem::find(src, b"new").is_none() {
        return Vec::new();
    }
    let word = crate::lexer::is_word_byte;
    let skip_blanks = |mut i: usize| {
        while src.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        i
    };
    let root = tree.root_node();
    let mut out = Vec::new();
    for id in crate::lexer::identifiers(src) {
        if &src[id.clone()] != b"new" {
            continue;
        }
        let mut i = skip_blanks(id.end);
        // A placement or `(std::nothrow)`.
        if src.get(i) == Some(&b'(') {
            let Some(close) = matching_paren(src, i, true) else {
                continue;
            };
            i = skip_blanks(close + 1);
        }
        // Qualifiers before the type.
        let mut blanks: Vec<usize> = Vec::new();
        loop {
            let n = src[i..].iter().take_while(|&&b| word(b)).count();
            if !matches!(&src[i..i + n], b"const" | b"volatile") {
                break;
            }
            blanks.extend(i..i + n);
            i = skip_blanks(i + n);
        }
        // The type: words, `::` and template arguments, up to the first `*` outside them.
        let type_start = i;
        let mut angles = 0usize;
        while let Some(&b) = src.get(i) {
            match b {
                b'<' => angles += 1,
                b'>' if angles > 0 => angles -= 1,
                b'*' if angles == 0 => break,
                b':' | b' ' | b'\t' | b'\n' | b'\r' => {}
                b',' | b'*' | b'&' | b'(' | b')' if angles > 0 => {}
                _ if word(b) => {}
                _ => break,
            }
            i += 1;
        }
        let typed = src
            .get(type_start)
            .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_' || b == b':');
        if angles != 0 || !typed {
            continue;
        }
        // The stars, then what ends the type: an array's `[`, an initializer, or the end of
        // the expression.
        let mut stars = false;
        while let Some(&b) = src.get(i) {
            match b {
                b'*' => {
                    blanks.push(i);
                    stars = true;
                }
                b' ' | b'\t' => {}
                _ => break,
            }
            i += 1;
        }
        // (`new int*(p)` parses as it is, as a product.)
        let ends = match src.get(i) {
            Some(b'[' | b';' | b')' | b',' | b'{') => true,
            Some(b'(') => !stars,
            _ => false,
        };
        if blanks.is_empty() || !ends {
            continue;
        }
        let broken = root
            .descendant_for_byte_range(id.start, i + 1)
            .is_some_and(|n| n.has_error());
        if broken {
            out.extend(blanks);
        }
    }
    out
}

/// Parses `src` with `parser`, giving up once `budget` has passed since `start`.
fn parse_text(
    parser: &mut Parser,
    src: &[u8],
    start: Instant,
    budget: Duration,
) -> Result<Tree, ParseError> {
    let mut progress = |_: &ParseState| {
        if start.elapsed() > budget {
            ControlFlow::Break(())
        } else {
            ControlFlow::Continue(())
        }
    };
    let options = ParseOptions::new().progress_callback(&mut progress);
    let len = src.len();
    let mut read = |offset: usize, _| {
        if offset < len {
            &src[offset..]
        } else {
            &[][..]
        }
    };
    match parser.parse_with_options(&mut read, None, Some(options)) {
        Some(t) => Ok(t),
        None => {
            parser.reset();
            if start.elapsed() > budget {
                Err(ParseError::Timeout(budget))
            } else {
                Err(ParseError::NoTree)
            }
        }
    }
}

/// 1-based line ranges (inclusive) of the ERROR and MISSING nodes in a tree of `src`, merged,
/// less the `;` that statement macros supply (see [`statement_macros`]).
pub fn error_lines(tree: &Tree, src: &[u8]) -> Vec<(usize, usize)> {
    let mut out: Vec<(usize, usize)> = Vec::new();
    if !tree.root_node().has_error() {
        return out;
    }
    let macros = statement_macros::StatementMacros::new(src);
    let mut cursor = tree.walk();
    loop {
        let node = cursor.node();
        let descend = node.has_error() && !node.is_error() && !node.is_missing();
        if node.is_error() || (node.is_missing() && !macros.supplies(node)) {
            let (a, b) = (node.start_position().row + 1, node.end_position().row + 1);
            match out.last_mut() {
                Some(last) if a <= last.1 + 1 => last.1 = last.1.max(b),
                _ => out.push((a, b)),
            }
        }
        if descend && cursor.goto_first_child() {
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return out;
            }
        }
    }
}

/// Counts ERROR and MISSING nodes, for the "no more errors after translation" property.
pub fn error_count(tree: &Tree) -> usize {
    fn walk(n: Node, acc: &mut usize) {
        if n.is_error() || n.is_missing() {
            *acc += 1;
        }
        if n.has_error() {
            let mut c = n.walk();
            for ch in n.children(&mut c) {
                walk(ch, acc);
            }
        }
    }
    let mut acc = 0;
    walk(tree.root_node(), &mut acc);
    acc
}

/// A per-grammar lookup table from node kind ids to a caller's codes, so that hot walks compare
/// small integers instead of kind strings (`Node::kind` costs a `strlen` and a UTF-8 check).
/// `get(node.kind_id())` gives the code for exactly the nodes whose `kind()` is one of the names.
pub struct KindTable<T: Copy> {
    codes: Vec<T>,
    error: T,
    default: T,
}

impl<T: Copy> KindTable<T> {
    /// Maps each `(kind name, code)`; every other kind gets `default`.
    pub fn new(default: T, entries: &[(&str, T)]) -> Self {
        let mut codes = vec![default; language().node_kind_count()];
        let mut error = default;
        for &(name, code) in entries {
            if name == "ERROR" {
                error = code;
            }
            for &id in kind_ids(name) {
                codes[id as usize] = code;
            }
        }
        KindTable {
            codes,
            error,
            default,
        }
    }

    /// The code of a kind id (ERROR nodes have id 65535).
    #[inline]
    pub fn get(&self, id: u16) -> T {
        match self.codes.get(id as usize) {
            Some(&c) => c,
            None if id == u16::MAX => self.error,
            None => self.default,
        }
    }

    /// The code of a node's kind.
    #[inline]
    pub fn of(&self, node: Node) -> T {
        self.get(node.kind_id())
    }
}

impl<T: Copy + PartialEq> KindTable<T> {
    /// Whether kind `id` has a code of its own (not the default): a kind the pass reacts to.
    pub fn reacts_to(&self, id: u16) -> bool {
        self.get(id) != self.default
    }
}

/// The ids of the kinds named `name` (a name can have several: named and anonymous, aliases).
/// The grammar's names are read once; looking a kind up by name through tree-sitter scans them
/// all, which made building the passes' kind tables a few milliseconds of every start.
fn kind_ids(name: &str) -> &'static [u16] {
    type ByName = std::collections::HashMap<&'static str, Vec<u16>>;
    static BY_NAME: std::sync::LazyLock<ByName> = std::sync::LazyLock::new(|| {
        let mut map = ByName::new();
        for (id, &name) in KIND_NAMES.iter().enumerate() {
            map.entry(name).or_default().push(id as u16);
        }
        map
    });
    BY_NAME.get(name).map_or(&[], Vec::as_slice)
}

/// The grammar's id for a field name (looking it up by name scans every field name).
pub fn field_id(name: &str) -> u16 {
    language().field_id_for_name(name).map_or(0, |id| id.get())
}

/// Field ids of the grammar that the passes use, looked up once: tree-sitter's lookup by name
/// scans every field name of the grammar on each call.
#[allow(missing_docs)]
pub struct Fields {
    pub alternative: u16,
    pub argument: u16,
    pub arguments: u16,
    pub assembly_code: u16,
    pub body: u16,
    pub condition: u16,
    pub consequence: u16,
    pub declarator: u16,
    pub default_value: u16,
    pub field: u16,
    pub function: u16,
    pub indices: u16,
    pub initializer: u16,
    pub left: u16,
    pub name: u16,
    pub operator: u16,
    pub parameters: u16,
    pub path: u16,
    pub right: u16,
    pub scope: u16,
    pub size: u16,
    pub type_: u16,
    pub update: u16,
    pub value: u16,
}

/// The grammar's field ids (see [`Fields`]).
pub static FIELDS: std::sync::LazyLock<Fields> = std::sync::LazyLock::new(|| Fields {
    alternative: field_id("alternative"),
    argument: field_id("argument"),
    arguments: field_id("arguments"),
    assembly_code: field_id("assembly_code"),
    body: field_id("body"),
    condition: field_id("condition"),
    consequence: field_id("consequence"),
    declarator: field_id("declarator"),
    default_value: field_id("default_value"),
    field: field_id("field"),
    function: field_id("function"),
    indices: field_id("indices"),
    initializer: field_id("initializer"),
    left: field_id("left"),
    name: field_id("name"),
    operator: field_id("operator"),
    parameters: field_id("parameters"),
    path: field_id("path"),
    right: field_id("right"),
    scope: field_id("scope"),
    size: field_id("size"),
    type_: field_id("type"),
    update: field_id("update"),
    value: field_id("value"),
});

/// A node's kind name from a table by kind id: `Node::kind` looks the name up in the grammar and
/// checks it as UTF-8 on every call, which the rule code does for most nodes it looks at.
pub trait KindName {
    /// The same string as `Node::kind`.
    fn kind_name(&self) -> &'static str;
}

/// The grammar the kind names are borrowed from, kept in a static so that they live for the whole
/// run (a leaked box did the same, but leak checkers such as the fuzzer's reported it).
static KIND_LANGUAGE: std::sync::LazyLock<Language> = std::sync::LazyLock::new(language);

static KIND_NAMES: std::sync::LazyLock<Vec<&'static str>> = std::sync::LazyLock::new(|| {
    let lang: &'static Language = &KIND_LANGUAGE;
    (0..lang.node_kind_count() as u16)
        .map(|id| lang.node_kind_for_id(id).unwrap_or(""))
        .collect()
});

impl KindName for Node<'_> {
    #[inline]
    fn kind_name(&self) -> &'static str {
        match KIND_NAMES.get(self.kind_id() as usize) {
            Some(&k) => k,
            // Only the error symbols lie outside the grammar's kinds.
            None if self.kind_id() == u16::MAX => "ERROR",
            None => "_ERROR",
        }
    }
}

/// Every node of a tree in pre-order (the order of a cursor walk), with the index just past
/// each node's subtree, so that several passes can share one walk and skip subtrees.
pub struct Flat<'t> {
    /// The nodes, in pre-order.
    pub nodes: Vec<Node<'t>>,
    /// Their kind ids (`Node::kind_id`), read during the walk so that no pass asks each node.
    pub kinds: Vec<u16>,
    /// For each node, the index of the first node after its subtree.
    pub ends: Vec<u32>,
}

unsafe extern "C" {
    /// `csrc/flat.c`: the pre-order walk over tree-sitter's subtrees; returns the node count, or
    /// `u32::MAX` when `capacity` is too small or memory runs out.
    fn hipport_flat(
        root: tree_sitter::ffi::TSNode,
        keep: *const u8,
        nodes: *mut tree_sitter::ffi::TSNode,
        kinds: *mut u16,
        ends: *mut u32,
        capacity: u32,
    ) -> u32;

    /// `csrc/flat.c`: the child of `node` in field `field_id`, as `ts_node_child_by_field_id`
    /// finds it (a null node when there is none).
    fn hipport_child_by_field_id(
        node: tree_sitter::ffi::TSNode,
        field_id: u16,
    ) -> tree_sitter::ffi::TSNode;

    /// `csrc/flat.c`: the children of one node; returns their number, or `u32::MAX` when there
    /// are more than `capacity` or memory runs out.
    fn hipport_children(
        parent: tree_sitter::ffi::TSNode,
        out: *mut tree_sitter::ffi::TSNode,
        capacity: u32,
    ) -> u32;
}

/// A node's child in a field, as `Node::child_by_field_id` finds it, in about half its
/// instructions (see `csrc/flat.c`): the passes look fields up for most nodes they react to.
pub trait Field<'t> {
    /// The child in field `id` (a [`FIELDS`] id), if any.
    fn field(&self, id: u16) -> Option<Node<'t>>;
}

impl<'t> Field<'t> for Node<'t> {
    #[inline]
    fn field(&self, id: u16) -> Option<Node<'t>> {
        // SAFETY: `self` is a live node of a tree that outlives 't; the walk reads only that
        // tree and returns a node of it, or a null node (checked here).
        let raw = unsafe { hipport_child_by_field_id(self.into_raw(), id) };
        // SAFETY: a non-null node the lookup returned belongs to `self`'s tree.
        (!raw.id.is_null()).then(|| unsafe { Node::from_raw(raw) })
    }
}

/// The ancestors of `n`, its parent first: what calling `Node::parent` again and again gives,
/// found in one walk down from the root (each `Node::parent` call walks down from the root).
pub fn ancestors<'t>(n: Node<'t>) -> Vec<Node<'t>> {
    let raw = n.into_raw();
    let mut chain = Vec::new();
    // SAFETY: `raw` is a live node; its tree outlives 't, and every node these functions return
    // belongs to that tree (a null node is checked before use).
    unsafe {
        let mut node = tree_sitter::ffi::ts_tree_root_node(raw.tree);
        if node.id == raw.id {
            return chain;
        }
        loop {
            chain.push(Node::from_raw(node));
            let next = tree_sitter::ffi::ts_node_child_with_descendant(node, raw);
            if next.id == raw.id || next.id.is_null() {
                break;
            }
            node = next;
        }
    }
    chain.reverse();
    chain
}

/// The launch configuration (`<<<...>>>`) child of a call whose text is in `src`, if any.
pub fn launch_config<'t>(call: Node<'t>, src: &[u8]) -> Option<Node<'t>> {
    // `<<<` (or `<< <`, see [`spaced_launches`]) opens the configuration: a call whose text
    // lacks `<<` has none, and most calls are read no further.
    static LAUNCH: std::sync::LazyLock<memchr::memmem::Finder<'static>> =
        std::sync::LazyLock::new(|| memchr::memmem::Finder::new("<<"));
    LAUNCH.find(src.get(call.byte_range())?)?;
    children(call).find(|ch| ch.kind_name() == "kernel_call_syntax")
}

/// The byte ranges of launch chevrons written with blanks inside (`k << < g, b >> > (x)`, as
/// clang-format spaces them; nvcc takes it, clang does not), opener and closer in pairs: three
/// `<` with only blanks between (which no other C++ has but `operator<< <T>`), and the first
/// three `>` with only blanks between after them, outside brackets, before a `;`; one of the two
/// spaced. Tree-sitter is shown `<<<` and
/// `>>>` there, and the translator writes them so.
pub(crate) fn spaced_launches(src: &[u8]) -> Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> {
    let mut out: Vec<(std::ops::Range<usize>, std::ops::Range<usize>)> = Vec::new();
    let operator = |at: usize| src[..at].trim_ascii_end().ends_with(b"operator");
    for at in memchr::memmem::find_iter(src, b"<<") {
        if out.last().is_some_and(|(_, close)| at < close.end)
            || at > 0 && src[at - 1] == b'<'
            || operator(at)
        {
            continue;
        }
        let Some(open) = chevrons(src, at, b'<') else {
            continue;
        };
        // The closer: outside brackets, before the statement ends.
        let mut depth = 0usize;
        let mut i = open.end;
        let close = loop {
            match src.get(i) {
                Some(b'(' | b'[' | b'{') => depth += 1,
                Some(b')' | b']' | b'}') if depth > 0 => depth -= 1,
                Some(b'>') if depth == 0 => match chevrons(src, i, b'>') {
                    Some(r) => break Some(r),
                    None => {
                        i += src[i..].iter().take_while(|&&b| b == b'>').count();
                        continue;
                    }
                },
                None | Some(b';' | b')' | b']' | b'}') => break None,
                _ => {}
            }
            i += 1;
        };
        if let Some(close) = close.filter(|c| open.len() > 3 || c.len() > 3) {
            out.push((open, close));
        }
    }
    out
}

/// Three `ch`s from `at`, with only spaces or tabs between them and no fourth after:
/// their range.
pub(crate) fn chevrons(src: &[u8], at: usize, ch: u8) -> Option<std::ops::Range<usize>> {
    let mut seen = 0;
    let mut i = at;
    while seen < 3 {
        match src.get(i)? {
            &b if b == ch => seen += 1,
            b' ' | b'\t' if seen > 0 => {}
            _ => return None,
        }
        i += 1;
    }
    (src.get(i) != Some(&ch) && src.get(i) != Some(&b'=')).then_some(at..i)
}

/// The children of `n`, as `Node::children` lists them, without a cursor (see `csrc/flat.c`).
pub fn children<'t>(n: Node<'t>) -> std::vec::IntoIter<Node<'t>> {
    let count = n.child_count() as usize;
    let mut out: Vec<Node<'t>> = Vec::with_capacity(count);
    if let Ok(cap) = u32::try_from(count) {
        // SAFETY: `Node` is `repr(transparent)` over `TSNode`; the buffer holds `cap` elements
        // and the walk writes at most that many, returning how many it wrote. The children
        // borrow the same tree as `n`.
        let got = unsafe { hipport_children(n.into_raw(), out.as_mut_ptr().cast(), cap) };
        if got != u32::MAX && got as usize <= count {
            // SAFETY: the first `got` elements were written.
            unsafe { out.set_len(got as usize) };
            return out.into_iter();
        }
    }
    let mut c = n.walk();
    n.children(&mut c).collect::<Vec<_>>().into_iter()
}

/// The named children of `n`, as `Node::named_children` lists them, without a cursor.
pub fn named_children<'t>(n: Node<'t>) -> impl Iterator<Item = Node<'t>> {
    children(n).filter(|c| c.is_named())
}

/// A set of node kinds (by id, ERROR's 65535 included): those some pass reacts to.
pub struct KindSet(Box<[u8; 65536]>);

impl KindSet {
    /// The kinds for which `wanted` says yes.
    pub fn new(wanted: impl Fn(u16) -> bool) -> KindSet {
        let mut keep = Box::new([0u8; 65536]);
        let count = language().node_kind_count().min(65535);
        for id in (0..count as u16).chain([u16::MAX]) {
            keep[id as usize] = u8::from(wanted(id));
        }
        KindSet(keep)
    }

    /// Whether `id` is in the set.
    pub fn contains(&self, id: u16) -> bool {
        self.0[id as usize] != 0
    }
}

impl<'t> Flat<'t> {
    /// Walks the tree under `root` once (reading tree-sitter's subtrees directly: about ten
    /// times cheaper than a cursor; see `csrc/flat.c`).
    pub fn new(root: Node<'t>) -> Flat<'t> {
        Flat::walk(root, None)
    }

    /// Like [`Flat::new`], but lists only `root` and the nodes of the kinds in `keep` (the others
    /// are looked through, as hidden nodes are), with `ends` counted in that list. Most nodes
    /// are punctuation or kinds no pass reacts to; leaving them out spares every pass a step.
    pub fn of_kinds(root: Node<'t>, keep: &KindSet) -> Flat<'t> {
        Flat::walk(root, Some(keep))
    }

    fn walk(root: Node<'t>, keep: Option<&KindSet>) -> Flat<'t> {
        let capacity = root.descendant_count();
        if let Ok(cap) = u32::try_from(capacity) {
            let mut nodes: Vec<Node<'t>> = Vec::with_capacity(capacity);
            let mut kinds: Vec<u16> = Vec::with_capacity(capacity);
            let mut ends: Vec<u32> = Vec::with_capacity(capacity);
            // SAFETY: `Node` is `repr(transparent)` over `TSNode`; the three buffers hold `cap`
            // elements and the walk writes at most that many, returning how many it wrote. The
            // nodes borrow the tree `root` belongs to, as `root` does.
            let n = unsafe {
                hipport_flat(
                    root.into_raw(),
                    keep.map_or(std::ptr::null(), |k| k.0.as_ptr()),
                    nodes.as_mut_ptr().cast(),
                    kinds.as_mut_ptr(),
                    ends.as_mut_ptr(),
                    cap,
                )
            };
            if n != u32::MAX && n as usize <= capacity {
                // SAFETY: the first `n` elements of the three buffers were written.
                unsafe {
                    nodes.set_len(n as usize);
                    kinds.set_len(n as usize);
                    ends.set_len(n as usize);
                }
                return Flat { nodes, kinds, ends };
            }
        }
        let all = Flat::with_cursor(root);
        match keep {
            Some(keep) => all.only(keep),
            None => all,
        }
    }

    /// This list with only the root and the nodes of the kinds in `keep` (the reference
    /// [`Flat::of_kinds`] is tested against, and its fallback).
    pub fn only(self, keep: &KindSet) -> Flat<'t> {
        // before[i]: how many nodes are kept among the first i.
        let mut before = Vec::with_capacity(self.nodes.len() + 1);
        let mut n = 0u32;
        for (i, &k) in self.kinds.iter().enumerate() {
            before.push(n);
            n += u32::from(i == 0 || keep.contains(k));
        }
        before.push(n);
        let mut out = Flat {
            nodes: Vec::with_capacity(n as usize),
            kinds: Vec::with_capacity(n as usize),
            ends: Vec::with_capacity(n as usize),
        };
        for (i, (&node, &k)) in self.nodes.iter().zip(&self.kinds).enumerate() {
            if i == 0 || keep.contains(k) {
                out.nodes.push(node);
                out.kinds.push(k);
                out.ends.push(before[self.ends[i] as usize]);
            }
        }
        out
    }

    /// The same list through a [`tree_sitter::TreeCursor`] (the reference the fast walk is
    /// tested against, and its fallback).
    pub fn with_cursor(root: Node<'t>) -> Flat<'t> {
        let mut nodes = Vec::new();
        let mut ends = Vec::new();
        let mut open: Vec<usize> = Vec::new();
        let mut cursor = root.walk();
        loop {
            open.push(nodes.len());
            nodes.push(cursor.node());
            ends.push(0);
            if cursor.goto_first_child() {
                continue;
            }
            loop {
                if let Some(i) = open.pop() {
                    ends[i] = nodes.len() as u32;
                }
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    while let Some(i) = open.pop() {
                        ends[i] = nodes.len() as u32;
                    }
                    let kinds = nodes.iter().map(Node::kind_id).collect();
                    return Flat { nodes, kinds, ends };
                }
            }
        }
    }
}

/// The text of a node as bytes.
pub fn text<'a>(node: Node, src: &'a [u8]) -> &'a [u8] {
    &src[node.byte_range()]
}

/// A header path as written, `<inner>` or `"inner"`, optionally followed by a comment.
pub(crate) struct HeaderPath<'a> {
    pub(crate) open: char,
    pub(crate) inner: &'a str,
    pub(crate) close: char,
    /// Bytes from the opening to the closing delimiter, both included.
    pub(crate) len: usize,
}

impl<'a> HeaderPath<'a> {
    /// Reads a path that is all of `text` but for a trailing comment; `None` for anything else
    /// (`#include MACRO`).
    pub(crate) fn parse(text: &'a str) -> Option<Self> {
        let path = Self::at(text)?;
        let rest = text[path.len..].trim_start();
        (rest.is_empty() || rest.starts_with("//") || rest.starts_with("/*")).then_some(path)
    }

    /// Reads a path at the start of `text`, whatever follows it.
    fn at(text: &'a str) -> Option<Self> {
        let open = text.chars().next()?;
        let close = match open {
            '<' => '>',
            '"' => '"',
            _ => return None,
        };
        let end = 1 + text[1..].find(close)?;
        let inner = &text[1..end];
        (!inner.contains('\n')).then_some(HeaderPath {
            open,
            inner,
            close,
            len: end + 1,
        })
    }
}

/// The header paths that `__has_include(...)` and `__has_include_next(...)` ask about, with the
/// offset of each: tree-sitter-cuda cannot parse them, and they name headers to translate.
pub(crate) fn has_include_paths(src: &[u8]) -> impl Iterator<Item = (usize, HeaderPath<'_>)> {
    const WORD: &[u8] = b"__has_include";
    let blanks = |mut i: usize| {
        while matches!(src.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    memchr::memmem::find_iter(src, WORD).filter_map(move |hit| {
        let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
        if hit > 0 && ident(src[hit - 1]) {
            return None;
        }
        let mut i = hit + WORD.len();
        if src[i..].starts_with(b"_next") {
            i += b"_next".len();
        }
        if src.get(i).is_some_and(|&b| ident(b)) {
            return None;
        }
        i = blanks(i);
        if src.get(i) != Some(&b'(') {
            return None;
        }
        i = blanks(i + 1);
        let end = memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |e| i + e);
        let line = match std::str::from_utf8(&src[i..end]) {
            Ok(line) => line,
            Err(e) => std::str::from_utf8(&src[i..i + e.valid_up_to()]).ok()?,
        };
        let path = HeaderPath::at(line)?;
        (src.get(blanks(i + path.len)) == Some(&b')')).then_some((i, path))
    })
}

/// Macros of PyTorch and CUTLASS that tree-sitter cannot parse where they stand (a qualifier
/// before a declaration: `C10_HOST_DEVICE inline float f(...)`; a pragma before a loop:
/// `CUTLASS_PRAGMA_UNROLL`), and what it is shown instead, padded to the macro's length.
/// `C10_HOST_DEVICE` is shown as `__device__` (host and device code alike, and the hazards are
/// the device's); `C10_LAUNCH_BOUNDS_1(n)` as `__launch_bounds__(n)`; pragmas as blanks.
const QUALIFIER_MACROS: &[(&[u8], &[u8])] = &[
    (b"C10_HOST_DEVICE", b"__device__"),
    (b"C10_DEVICE", b"__device__"),
    (b"C10_HOST", b"__host__"),
    (b"C10_LAUNCH_BOUNDS_1", b"__launch_bounds__"),
    (b"CUTLASS_HOST_DEVICE", b"__host__ __device__"),
    (b"CUTLASS_DEVICE", b"__device__"),
    (b"CUTLASS_GLOBAL", b"__global__"),
    (b"CUTLASS_PRAGMA_UNROLL", b""),
    (b"CUTLASS_PRAGMA_NO_UNROLL", b""),
];

/// The calling-convention macros of CUDA's callbacks (`void CUDART_CB done(...)`: empty on
/// Linux, `__stdcall` on Windows). HIP's callback types do without, so the translator removes
/// them; tree-sitter is shown blanks.
const CALLING_CONVENTIONS: &[&str] = &["CUDART_CB", "CUDA_CB"];

/// Whether `word` is one of [`CALLING_CONVENTIONS`].
pub(crate) fn is_calling_convention(word: &str) -> bool {
    CALLING_CONVENTIONS.contains(&word)
}

/// `src` as tree-sitter should see it, offsets and every other byte unchanged: each
/// `__has_include` path blanked to an identifier of the same length (`____`), so the directive
/// parses, each `#pragma` line between a loop's header and its body blanked (see
/// [`pragmas_before_bodies`]), the uses of the file's and `headers`' [`ScopeMacro`]s blanked
/// where they balance, each macro of [`QUALIFIER_MACROS`] and [`CALLING_CONVENTIONS`] outside comments,
/// literals and directives replaced by what it stands for, padded with spaces, and each
/// alignment qualifier tree-sitter-cuda does not know shown as C++'s `alignas` (see
/// [`show_alignment`]).
fn parseable<'s>(src: &'s [u8], headers: &[u8]) -> std::borrow::Cow<'s, [u8]> {
    let includes = memchr::memmem::find(src, b"__has_include").is_some();
    let mut user = user_qualifier_macros(src);
    let mut scopes = scope_macros(src);
    let mut aligns = alignment_macros(src);
    if !headers.is_empty() {
        aligns.extend(alignment_macros(headers));
        // The file's own definition of a name wins over a header's.
        let own = |name: &[u8]| object_like_defines(src).any(|(n, _)| n == name);
        let theirs: Vec<UserQualifier> = user_qualifier_macros(headers)
            .into_iter()
            .filter(|h| !user.iter().any(|m| m.name == h.name))
            .collect();
        user.extend(theirs);
        scopes.extend(scope_macros(headers).into_iter().filter(|h| !own(h.name)));
    }
    let scope_uses = balanced_scope_uses(src, &scopes);
    let pragmas = memchr::memmem::find(src, b"_Pragma").is_some();
    let loop_pragmas = pragmas_before_bodies(src);
    let lambdas = lambda_qualifiers(src);
    let idioms = cpp_idioms(src);
    let qualifiers = !lambdas.is_empty()
        || !idioms.is_empty()
        || memchr::memmem::find(src, b"C10_").is_some()
        || memchr::memmem::find(src, b"CUTLASS_").is_some()
        || memchr::memmem::find(src, b"_CB").is_some()
        || memchr::memmem::find(src, b"_align__").is_some()
        || memchr::memmem::find(src, b"__declspec").is_some()
        || memchr::memmem::find(src, b"__cluster_dims__").is_some()
        || !user.is_empty()
        || !aligns.is_empty()
        || pragmas;
    let launches = spaced_launches(src);
    let alt_tokens = condition_alternative_tokens(src);
    let dynamic_shared = hip_dynamic_shared(src);
    if !includes
        && !qualifiers
        && dynamic_shared.is_empty()
        && launches.is_empty()
        && loop_pragmas.is_empty()
        && scope_uses.is_empty()
        && alt_tokens.is_empty()
    {
        return std::borrow::Cow::Borrowed(src);
    }
    let mut out = src.to_vec();
    for (at, shown) in alt_tokens {
        out[at..at + shown.len()].copy_from_slice(shown);
    }
    for (at, shown) in dynamic_shared {
        out[at..at + shown.len()].copy_from_slice(&shown);
    }
    for name in scope_uses {
        blank(&mut out[name]);
    }
    for line in loop_pragmas {
        blank(&mut out[line]);
    }
    for (open, close) in &launches {
        for (r, shown) in [(open, b"<<<"), (close, b">>>")] {
            out[r.clone()].fill(b' ');
            out[r.start..r.start + 3].copy_from_slice(shown);
        }
    }
    if includes {
        for (at, path) in has_include_paths(src) {
            out[at..at + path.len].fill(b'_');
        }
    }
    if qualifiers {
        for id in crate::lexer::identifiers(src) {
            let word = &src[id.clone()];
            let shown: &[u8] = match QUALIFIER_MACROS.iter().find(|(m, _)| *m == word) {
                Some((_, shown)) => shown,
                None if is_calling_convention(std::str::from_utf8(word).unwrap_or("")) => b"",
                None if word == b"__cluster_dims__" => {
                    if let Some(end) = attribute_args_end(src, id.end) {
                        if !in_directive(src, id.start) {
                            blank(&mut out[id.start..end]);
                        }
                    }
                    continue;
                }
                None if matches!(word, b"__align__" | b"__builtin_align__" | b"__declspec") => {
                    if !in_directive(src, id.start) {
                        show_alignment(src, id, &mut out);
                    }
                    continue;
                }
                None if aligns.contains(&word) => {
                    // `ALIGN(32)`, the whole use: nothing hipport reads depends on alignment.
                    let open = id.end
                        + src[id.end..]
                            .iter()
                            .take_while(|b| matches!(b, b' ' | b'\t'))
                            .count();
                    if src.get(open) == Some(&b'(') && !in_directive(src, id.start) {
                        if let Some(close) = matching_paren(src, open, true) {
                            blank(&mut out[id.start..close + 1]);
                        }
                    }
                    continue;
                }
                None => match user.iter().find(|m| m.name == word) {
                    Some(m) => m.shown,
                    None if word == b"_Pragma" => match pragma_end(src, id.end) {
                        Some(end) if !in_directive(src, id.start) => {
                            blank(&mut out[id.start..end]);
                            continue;
                        }
                        _ => continue,
                    },
                    None => continue,
                },
            };
            if in_directive(src, id.start) {
                continue;
            }
            let slot = &mut out[id];
            slot.fill(b' ');
            slot[..shown.len()].copy_from_slice(shown);
        }
        for word in lambdas {
            if !in_directive(src, word.start) {
                blank(&mut out[word]);
            }
        }
        for (range, fill) in idioms {
            out[range].fill(fill);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// HIP's `HIP_DYNAMIC_SHARED(type, var)` (amd_hip_runtime.h: `#define HIP_DYNAMIC_SHARED(type,
/// var) extern __shared__ type var[];`), a declaration that tree-sitter reads as a call with a
/// type for an argument (a T008 on TensorFlow's ROCm arms): each use outside directives, as
/// tree-sitter is to see it, `extern __shared__ type *var`, with the type and the name at their
/// own offsets, and a `;` where none follows (the macro's body has its own).
fn hip_dynamic_shared(src: &[u8]) -> Vec<(usize, Vec<u8>)> {
    const NAME: &[u8] = b"HIP_DYNAMIC_SHARED";
    const SHOWN: &[u8] = b"extern __shared__";
    let mut out = Vec::new();
    if memchr::memmem::find(src, NAME).is_none() {
        return out;
    }
    for id in crate::lexer::identifiers(src) {
        if src[id.clone()] != *NAME || in_directive(src, id.start) {
            continue;
        }
        let mut open = id.end;
        while src.get(open).is_some_and(|b| b.is_ascii_whitespace()) {
            open += 1;
        }
        if src.get(open) != Some(&b'(') {
            continue;
        }
        // The last comma outside brackets (`std::pair<int, int>` is one type), and the `)`.
        let (mut depth, mut comma, mut close) = (0usize, None, None);
        for (j, &b) in src.iter().enumerate().skip(open + 1) {
            match b {
                b'(' | b'<' | b'[' => depth += 1,
                b')' if depth == 0 => {
                    close = Some(j);
                    break;
                }
                b')' | b'>' | b']' => depth = depth.saturating_sub(1),
                b',' if depth == 0 => comma = Some(j),
                b';' | b'{' | b'}' => break,
                _ => {}
            }
        }
        let (Some(comma), Some(close)) = (comma, close) else {
            continue;
        };
        let var = src[comma + 1..close].trim_ascii();
        if var.is_empty()
            || var[0].is_ascii_digit()
            || !var.iter().all(|&b| crate::lexer::is_word_byte(b))
            || src[open + 1..comma].trim_ascii().is_empty()
        {
            continue;
        }
        let mut shown = src[id.start..=close].to_vec();
        shown[..open + 1 - id.start].fill(b' ');
        shown[..SHOWN.len()].copy_from_slice(SHOWN);
        shown[comma - id.start] = b'*';
        let next = src[close + 1..].iter().find(|b| !matches!(b, b' ' | b'\t'));
        shown[close - id.start] = if next == Some(&b';') { b' ' } else { b';' };
        out.push((id.start, shown));
    }
    out
}

/// C++'s alternative operator tokens, with what tree-sitter is shown for each (padded with
/// blanks to the word's length): `#if defined(__CUDA_ARCH__) and (__CUDA_ARCH__ >= 1000)` as
/// DeepGEMM writes it (realuser12 D1). [`operator_text`] reads them back.
const ALTERNATIVE_TOKENS: &[(&[u8], &[u8])] = &[
    (b"and", b"&& "),
    (b"or", b"||"),
    (b"not", b"!  "),
    (b"not_eq", b"!=    "),
    (b"bitand", b"&     "),
    (b"bitor", b"|    "),
    (b"xor", b"^  "),
    (b"compl", b"~    "),
];

/// The text of operator node `op` of `src`, with an alternative token (`and`, `not`; shown to
/// tree-sitter as `&&`, `!`, so the node covers only part of the word) read as the operator it
/// stands for.
pub(crate) fn operator_text<'s>(src: &'s [u8], op: Node) -> &'s str {
    let start = op.start_byte();
    let word = src[start..]
        .iter()
        .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
        .count();
    let text = std::str::from_utf8(&src[op.byte_range()]).unwrap_or("");
    if word == 0 {
        return text;
    }
    ALTERNATIVE_TOKENS
        .iter()
        .find(|(w, _)| *w == &src[start..start + word])
        .and_then(|(_, shown)| std::str::from_utf8(shown).ok())
        .map_or(text, str::trim_end)
}

/// The alternative tokens in the conditions of `#if`/`#elif` lines (where tree-sitter's
/// preprocessor grammar does not know them), by offset, with what to show there instead.
fn condition_alternative_tokens(src: &[u8]) -> Vec<(usize, &'static [u8])> {
    let mut out = Vec::new();
    if !ALTERNATIVE_TOKENS
        .iter()
        .any(|(w, _)| memchr::memmem::find(src, w).is_some())
    {
        return out;
    }
    for hash in memchr::memchr_iter(b'#', src) {
        let line_start = memchr::memrchr(b'\n', &src[..hash]).map_or(0, |l| l + 1);
        if !src[line_start..hash]
            .iter()
            .all(|b| *b == b' ' || *b == b'\t')
        {
            continue;
        }
        let rest = &src[hash + 1..];
        let blank = rest
            .iter()
            .take_while(|b| **b == b' ' || **b == b'\t')
            .count();
        let word = &rest[blank..];
        let skip = if word.starts_with(b"if")
            && !word.starts_with(b"ifdef")
            && !word.starts_with(b"ifndef")
        {
            2
        } else if word.starts_with(b"elif")
            && !word.starts_with(b"elifdef")
            && !word.starts_with(b"elifndef")
        {
            4
        } else {
            continue;
        };
        let cond_start = hash + 1 + blank + skip;
        // The logical line, to the first comment.
        let mut end = cond_start;
        while end < src.len() && src[end] != b'\n' {
            if src[end..].starts_with(b"//") || src[end..].starts_with(b"/*") {
                break;
            }
            if src[end] == b'\\' && src.get(end + 1) == Some(&b'\n') {
                end += 1;
            }
            end += 1;
        }
        for id in crate::lexer::identifiers(&src[cond_start..end]) {
            let word = &src[cond_start + id.start..cond_start + id.end];
            if let Some((_, shown)) = ALTERNATIVE_TOKENS.iter().find(|(w, _)| *w == word) {
                out.push((cond_start + id.start, *shown));
            }
        }
    }
    out
}

/// What the conditional directives around `n` test, innermost first: the condition of each
/// enclosing `#if`/`#elif`, the name of each `#ifdef`/`#ifndef`/`#elifdef`.
pub(crate) fn directive_tests(n: Node<'_>) -> impl Iterator<Item = Node<'_>> {
    ancestors(n)
        .into_iter()
        .filter_map(|x| match x.kind_name() {
            "preproc_if" | "preproc_elif" => x.child_by_field_name("condition"),
            "preproc_ifdef" | "preproc_elifdef" => x.child_by_field_name("name"),
            _ => None,
        })
}

/// What a [`walk_subtree`] visit asks for next.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum Visit {
    /// Go on into the node's children.
    Descend,
    /// Go on past the node, without its children.
    Skip,
    /// End the walk.
    Stop,
}

/// Visits `root` and the nodes below it in pre-order (source order), as `visit` asks; returns
/// whether a visit stopped the walk. The nodes come from one [`Flat`] walk of the subtree (a
/// few dozen instructions a node, against several hundred for a cursor's steps), and a
/// [`Visit::Skip`] jumps past the subtree's end in that list.
pub(crate) fn walk_subtree<'t>(root: Node<'t>, mut visit: impl FnMut(Node<'t>) -> Visit) -> bool {
    let flat = Flat::new(root);
    let mut i = 0;
    while let Some(&n) = flat.nodes.get(i) {
        match visit(n) {
            Visit::Stop => return true,
            Visit::Descend => i += 1,
            Visit::Skip => i = (flat.ends[i] as usize).max(i + 1),
        }
    }
    false
}

/// A loop or `if` body without braces that `#if`/`#else` chooses (`for (...)` then `#ifdef X` /
/// one statement / `#else` / another / `#endif`), which tree-sitter cannot parse: the byte
/// ranges of its directive lines and of each arm's lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct ChosenBody {
    /// The loop or `if` header line before it.
    pub header: std::ops::Range<usize>,
    /// The `#if`, `#elif`, `#else` and `#endif` lines.
    pub directives: Vec<std::ops::Range<usize>>,
    /// The lines between them, arm by arm.
    pub arms: Vec<std::ops::Range<usize>>,
}

/// The bodies of `src` that `#if`/`#else` chooses right after a `for`, `while`, `if` or `else`
/// header that ends its line (see [`ChosenBody`]).
pub(crate) fn chosen_bodies(src: &[u8]) -> Vec<ChosenBody> {
    let mut lines: Vec<std::ops::Range<usize>> = Vec::new();
    let mut start = 0;
    for nl in memchr::memchr_iter(b'\n', src) {
        lines.push(start..nl + 1);
        start = nl + 1;
    }
    if start < src.len() {
        lines.push(start..src.len());
    }
    let trimmed = |r: &std::ops::Range<usize>| src[r.clone()].trim_ascii();
    let directive = |r: &std::ops::Range<usize>| -> Option<&[u8]> {
        let t = trimmed(r).strip_prefix(b"#")?.trim_ascii_start();
        let n = t.iter().take_while(|b| b.is_ascii_alphabetic()).count();
        Some(&t[..n])
    };
    let mut out = Vec::new();
    let mut prev: Option<usize> = None;
    let mut i = 0;
    while i < lines.len() {
        let t = trimmed(&lines[i]);
        if t.is_empty() || t.starts_with(b"//") {
            i += 1;
            continue;
        }
        let opens = matches!(directive(&lines[i]), Some(b"if" | b"ifdef" | b"ifndef"));
        let header = prev.is_some_and(|p| {
            let h = trimmed(&lines[p]);
            let h = h.strip_prefix(b"}").map_or(h, <[u8]>::trim_ascii_start);
            let word = |w: &[u8]| {
                h.starts_with(w)
                    && h.get(w.len())
                        .is_none_or(|b| !b.is_ascii_alphanumeric() && *b != b'_')
            };
            (word(b"for") || word(b"while") || word(b"if") || word(b"else"))
                && (h.ends_with(b")") || h.ends_with(b"else"))
                && !h.starts_with(b"#")
        });
        if opens && header {
            // The matching `#else`/`#elif`/`#endif` at depth 0.
            let mut directives = vec![lines[i].clone()];
            let mut arms = Vec::new();
            let mut arm_start = lines[i].end;
            let mut depth = 0usize;
            let mut j = i + 1;
            let mut closed = false;
            while j < lines.len() {
                match directive(&lines[j]) {
                    Some(b"if" | b"ifdef" | b"ifndef") => depth += 1,
                    Some(b"endif") if depth > 0 => depth -= 1,
                    Some(d @ (b"else" | b"elif" | b"elifdef" | b"elifndef" | b"endif"))
                        if depth == 0 =>
                    {
                        arms.push(arm_start..lines[j].start);
                        directives.push(lines[j].clone());
                        arm_start = lines[j].end;
                        if d == b"endif" {
                            closed = true;
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            if closed {
                let header = lines[prev.unwrap_or(i)].clone();
                out.push(ChosenBody {
                    header,
                    directives,
                    arms,
                });
                prev = None;
                i = j + 1;
                continue;
            }
        }
        if !t.starts_with(b"#") {
            prev = Some(i);
        }
        i += 1;
    }
    out
}

/// `src` with each of `bodies` reduced to one arm (`arms[i]` for body `i`): the directive lines
/// and the other arms become blanks, line ends kept, so offsets stay.
pub(crate) fn keep_arms(src: &[u8], bodies: &[ChosenBody], arms: &[usize]) -> Vec<u8> {
    let mut out = src.to_vec();
    for (b, &kept) in bodies.iter().zip(arms) {
        for d in &b.directives {
            blank_lines(&mut out[d.clone()]);
        }
        for (k, a) in b.arms.iter().enumerate() {
            if k != kept {
                blank_lines(&mut out[a.clone()]);
            }
        }
    }
    out
}

/// `src` with the header line of each of `bodies` blank: the directives then stand among
/// statements, where tree-sitter reads them (to judge which arms hipcc compiles).
pub(crate) fn without_headers(src: &[u8], bodies: &[ChosenBody]) -> Vec<u8> {
    let mut out = src.to_vec();
    for b in bodies {
        blank_lines(&mut out[b.header.clone()]);
    }
    out
}

/// Blanks `text` but for its line ends.
fn blank_lines(text: &mut [u8]) {
    for b in text {
        if *b != b'\n' && *b != b'\r' {
            *b = b' ';
        }
    }
}

/// The `*`s of a function parameter pack declared as pointers (`PayloadTs* __restrict__...
/// payloads`, `Ts*... ps`, torchaudio's bitonic sort), which tree-sitter-cuda 0.21 cannot parse
/// (`Ts&... ps` and fold expressions it can; a `&` before `__restrict__` is
/// [`restrict_references`]'s): each becomes a blank, so that the parser reads a plain pack
/// (`Ts __restrict__... ps`) of the same name at the same offsets. The declared type of the pack
/// loses its `*` for the analysis, which asks nothing of packs. A `...` is such a declarator's
/// where a name follows it and a type name (or `>`) comes before the `*` run: a fold (`(xs
/// * ... * 1)`, `(xs && ...)`) has an operator or `)` after its `...`.
fn pack_declarators(src: &[u8]) -> Vec<(std::ops::Range<usize>, u8)> {
    const QUALIFIERS: [&[u8]; 5] = [
        b"const",
        b"volatile",
        b"__restrict__",
        b"__restrict",
        b"restrict",
    ];
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let blank = |b: u8| b == b' ' || b == b'\t';
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(src, b"...") {
        let after = at + 3;
        let next = src[after..]
            .iter()
            .position(|&b| !blank(b))
            .map(|k| after + k);
        if !next.is_some_and(|k| src[k].is_ascii_alphabetic() || src[k] == b'_') {
            continue;
        }
        // Back over blanks and qualifiers, then the `*`/`&` run.
        let mut i = at;
        loop {
            while i > 0 && blank(src[i - 1]) {
                i -= 1;
            }
            match QUALIFIERS
                .iter()
                .find(|q| src[..i].ends_with(q) && (i == q.len() || !ident(src[i - q.len() - 1])))
            {
                Some(q) => i -= q.len(),
                None => break,
            }
        }
        let run_end = i;
        while i > 0 && matches!(src[i - 1], b'*' | b'&' | b' ' | b'\t') {
            i -= 1;
        }
        let run = &src[i..run_end];
        let pointer = run.contains(&b'*');
        if !pointer || !(i > 0 && (ident(src[i - 1]) || src[i - 1] == b'>')) {
            continue;
        }
        out.extend(memchr::memchr_iter(b'*', run).map(|k| (i + k..i + k + 1, b' ')));
    }
    out
}

/// The `__restrict__` (or `__restrict`) of a reference declarator (`KeyT& __restrict__ key`, a
/// GNU form nvcc and hipcc accept; torchaudio's bitonic sort), which tree-sitter-cuda 0.21
/// cannot parse where it can the pointer's: blanked, so that the parser reads `KeyT& key`.
/// Only where `&` comes before it and a name (or a pack's `...`) after it.
fn restrict_references(src: &[u8]) -> Vec<(std::ops::Range<usize>, u8)> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(src, b"__restrict") {
        let word = src[at..].iter().take_while(|&&b| ident(b)).count();
        if !matches!(&src[at..at + word], b"__restrict__" | b"__restrict")
            || at > 0 && ident(src[at - 1])
        {
            continue;
        }
        let before = src[..at].trim_ascii_end();
        let rest = src[at + word..].trim_ascii_start();
        let named = rest
            .first()
            .is_some_and(|&b| b.is_ascii_alphabetic() || b == b'_')
            || rest.starts_with(b"...");
        if before.ends_with(b"&") && named {
            out.push((at..at + word, b' '));
        }
    }
    out
}

/// C++ forms tree-sitter-cuda cannot parse, with what to show it instead (same length, so
/// offsets stay): the blanks of a conversion operator called as a member (`x.operator __half()`,
/// `p->operator float()`) become `_`, one name (`operator___half`); and the `typename` of a
/// functional cast of a dependent type that starts a statement or an operand and is used at
/// once (`typename Ktraits::BlockLoadT(smem).Load(...)`, `s = typename
/// Ktraits::BlockReduceFloatT(smem).Sum(v)`, the CUB temporary-object idiom) becomes
/// blanks; so does the `template` (and an `extern` before it) of an explicit instantiation of a
/// class template (`template class W<64>;`, which ends every libSGM kernel file): what is left,
/// `class W<64>;`, parses. The text itself is not changed.
fn cpp_idioms(src: &[u8]) -> Vec<(std::ops::Range<usize>, u8)> {
    let mut out = Vec::new();
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    out.extend(class_instantiations(src));
    out.extend(extern_c_guards(src));
    out.extend(macro_conditions(src));
    out.extend(pack_declarators(src));
    out.extend(restrict_references(src));
    out.extend(anonymous_enum_bases(src));
    out.extend(asm_constraint_macros(src));
    for at in memchr::memmem::find_iter(src, b"operator") {
        let before = src[..at].trim_ascii_end();
        let member = before.ends_with(b".") || before.ends_with(b"->");
        let end = at + b"operator".len();
        let gap = src[end..]
            .iter()
            .take_while(|b| **b == b' ' || **b == b'\t')
            .count();
        if !member || gap == 0 || !src.get(end + gap).is_some_and(|&b| ident(b)) {
            continue;
        }
        // One type name, then the call: `x.operator float()`.
        let name = src[end + gap..].iter().take_while(|&&b| ident(b)).count();
        if src[end + gap + name..].trim_ascii_start().starts_with(b"(") {
            out.push((end..end + gap, b'_'));
        }
    }
    for at in memchr::memmem::find_iter(src, b"typename") {
        let end = at + b"typename".len();
        if at > 0 && ident(src[at - 1]) || src.get(end).is_some_and(|&b| ident(b)) {
            continue;
        }
        // At the start of a statement, or where an expression starts: after an operator or an
        // opening bracket (`s = typename Ktraits::BlockReduceFloatT(smem).Sum(v);`,
        // `f(typename K::R(t).Sum(v))`), or after `return` (R49-g).
        let before = src[..at].trim_ascii_end();
        let after_return = before.ends_with(b"return")
            && !before[..before.len() - b"return".len()]
                .last()
                .is_some_and(|&b| ident(b));
        if !after_return
            && !matches!(
                before.last(),
                None | Some(
                    b';' | b'{'
                        | b'}'
                        | b'='
                        | b'('
                        | b'['
                        | b','
                        | b'?'
                        | b':'
                        | b'!'
                        | b'+'
                        | b'-'
                        | b'*'
                        | b'/'
                        | b'%'
                        | b'&'
                        | b'|'
                        | b'^'
                        | b'~'
                )
            )
        {
            continue;
        }
        // A qualified name, its argument list, then `.` or `->` at once.
        let mut i = end;
        let mut qualified = false;
        loop {
            while src.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
                i += 1;
            }
            let n = src[i..].iter().take_while(|&&b| ident(b)).count();
            if n == 0 {
                break;
            }
            i += n;
            if src[i..].starts_with(b"::") {
                i += 2;
                qualified = true;
            } else {
                break;
            }
        }
        while src.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        if !qualified || src.get(i) != Some(&b'(') {
            continue;
        }
        let mut depth = 0usize;
        let mut close = None;
        for (k, &b) in src[i..].iter().enumerate().take(4096) {
            match b {
                b'(' => depth += 1,
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        close = Some(i + k);
                        break;
                    }
                }
                b';' | b'{' | b'}' => break,
                _ => {}
            }
        }
        let Some(close) = close else { continue };
        let rest = src[close + 1..].trim_ascii_start();
        if rest.starts_with(b".") || rest.starts_with(b"->") {
            out.push((at..end, b' '));
        }
    }
    out
}

/// The conditions of `if`, `while` and `switch` written as a macro without parentheses of their
/// own (`if IN_RANGE(i, n) {`, where `#define IN_RANGE(x, n) (x >= 0 && x < n)`; `while
/// MORE {`), which C++ allows only once the macro is expanded: tree-sitter is shown the
/// parentheses in the blanks around the macro (`if(IN_RANGE(i, n)){`), or, where no blank
/// follows it, the macro's name as blanks, its arguments then standing as the condition
/// (`if         (i, n){`). A word after the keyword is never C++ but for `constexpr` and
/// `consteval`; what follows the macro must start a statement, not go on with an operator.
fn macro_conditions(src: &[u8]) -> Vec<(std::ops::Range<usize>, u8)> {
    let word = crate::lexer::is_word_byte;
    let blanks = |mut i: usize| {
        while matches!(src.get(i), Some(b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let mut out = Vec::new();
    let mut identifiers: Option<Vec<std::ops::Range<usize>>> = None;
    let keywords = [&b"if"[..], b"while", b"switch"];
    for key in keywords {
        for at in memchr::memmem::find_iter(src, key) {
            let end = at + key.len();
            if at > 0 && word(src[at - 1]) || !matches!(src.get(end), Some(b' ' | b'\t')) {
                continue;
            }
            let name = blanks(end);
            let name_end = name + src[name..].iter().take_while(|&&b| word(b)).count();
            if name_end == name
                || src[name].is_ascii_digit()
                || matches!(&src[name..name_end], b"constexpr" | b"consteval")
            {
                continue;
            }
            // The arguments of a function-like macro, on its line.
            let mut close = None;
            let open = blanks(name_end);
            if src.get(open) == Some(&b'(') {
                let mut depth = 0usize;
                for (k, &b) in src[open..].iter().enumerate().take(4096) {
                    match b {
                        b'(' => depth += 1,
                        b')' => {
                            depth -= 1;
                            if depth == 0 {
                                close = Some(open + k);
                                break;
                            }
                        }
                        b'\n' | b';' | b'{' | b'}' => break,
                        _ => {}
                    }
                }
                if close.is_none() {
                    continue;
                }
            }
            let after = close.map_or(name_end, |c| c + 1);
            let next = blanks(after);
            let starts_statement = match src.get(next) {
                None | Some(b'{' | b';' | b'\n' | b'\r') => true,
                Some(b'/') => matches!(src.get(next + 1), Some(b'/' | b'*')),
                Some(&b) => word(b) && next > after,
            };
            if !starts_statement || in_directive(src, at) {
                continue;
            }
            // The keyword is code, not a comment's or a literal's word.
            let ids = identifiers.get_or_insert_with(|| crate::lexer::identifiers(src));
            if ids.binary_search_by_key(&at, |r| r.start).is_err() {
                continue;
            }
            if next > after {
                out.push((end..end + 1, b'('));
                out.push((after..after + 1, b')'));
            } else if close.is_some() {
                out.push((name..name_end, b' '));
            }
        }
    }
    out
}

/// The `template` words (with an `extern` before one) of the explicit instantiations of class
/// templates in `src` (`template class W<64>;`, `extern template struct ns::W<1, 2>;`), to show
/// tree-sitter as blanks (see [`cpp_idioms`]): each starts a statement, names `class`, `struct`
/// or `union` next, then a name with template arguments and a `;`, no body.
fn class_instantiations(src: &[u8]) -> Vec<(std::ops::Range<usize>, u8)> {
    let ident = |b: u8| b.is_ascii_alphanumeric() || b == b'_';
    let mut out = Vec::new();
    for at in memchr::memmem::find_iter(src, b"template") {
        let end = at + b"template".len();
        if at > 0 && ident(src[at - 1]) || src.get(end).is_some_and(|&b| ident(b)) {
            continue;
        }
        let mut from = at;
        let mut before = src[..at].trim_ascii_end();
        if before.ends_with(b"extern")
            && !before[..before.len() - 6].last().is_some_and(|&b| ident(b))
        {
            from = before.len() - 6;
            before = before[..from].trim_ascii_end();
        }
        // At the start of a statement or of a line.
        let line_start = src[..from]
            .iter()
            .rev()
            .take_while(|&&b| b != b'\n')
            .all(|b| b.is_ascii_whitespace());
        if !line_start && !matches!(before.last(), None | Some(b';' | b'{' | b'}')) {
            continue;
        }
        let rest = src[end..].trim_ascii_start();
        let key = rest.iter().take_while(|&&b| ident(b)).count();
        if !matches!(&rest[..key], b"class" | b"struct" | b"union") {
            continue;
        }
        // A name with template arguments, then `;`: no `{`, `(` or `=` on the way.
        let stmt = &rest[key..];
        let Some(semi) = stmt.iter().take(512).position(|&b| b == b';') else {
            continue;
        };
        let decl = &stmt[..semi];
        if decl.contains(&b'<')
            && decl.trim_ascii_end().ends_with(b">")
            && !decl
                .iter()
                .any(|b| matches!(b, b'{' | b'}' | b'(' | b'=' | b'#'))
        {
            out.push((from..end, b' '));
        }
    }
    out
}

/// Macros that stand for an inline-asm operand's constraint (`#define __PTR "l"` in AMGX,
/// `_CUB_ASM_PTR_` in older CUB, CUDA's own `__LDG_PTR`: `asm ("ld.global.cg.f32 %0, [%1];" :
/// "=f"(r) : __PTR(ptr))`), where tree-sitter-cuda takes only a string: each shown as a string of
/// its length (`"   "`). Only in an `asm` statement's operand lists (after its first `:`), where
/// a name before a `(` can be nothing else.
fn asm_constraint_macros(src: &[u8]) -> Vec<(std::ops::Range<usize>, u8)> {
    let mut out = Vec::new();
    let skip_blanks = |mut i: usize| {
        while src
            .get(i)
            .is_some_and(|b| b.is_ascii_whitespace() || *b == b'\\')
        {
            i += 1;
        }
        i
    };
    if memchr::memmem::find(src, b"asm").is_none() {
        return out;
    }
    for id in crate::lexer::identifiers(src) {
        let at = id.start;
        let word = &src[id];
        if !matches!(word, b"asm" | b"__asm" | b"__asm__") || in_directive(src, at) {
            continue;
        }
        // Past the qualifiers to the `(`.
        let mut i = skip_blanks(at + word.len());
        while let Some(q) = [&b"volatile"[..], b"__volatile__", b"goto", b"inline"]
            .into_iter()
            .find(|q| {
                src[i..].starts_with(q)
                    && !src
                        .get(i + q.len())
                        .is_some_and(|b| crate::lexer::is_word_byte(*b))
            })
        {
            i = skip_blanks(i + q.len());
        }
        if src.get(i) != Some(&b'(') {
            continue;
        }
        let (mut depth, mut colons) = (0usize, 0usize);
        // Whether the next item of an operand list starts here (after a `:` or `,`).
        let mut item = false;
        while i < src.len() {
            match src[i] {
                b'"' | b'\'' => {
                    let quote = src[i];
                    i += 1;
                    while i < src.len() && src[i] != quote && src[i] != b'\n' {
                        i += if src[i] == b'\\' { 2 } else { 1 };
                    }
                    item = false;
                }
                b'/' if src.get(i + 1) == Some(&b'/') => {
                    i = memchr::memchr(b'\n', &src[i..]).map_or(src.len(), |e| i + e);
                    continue;
                }
                b'/' if src.get(i + 1) == Some(&b'*') => {
                    i = memchr::memmem::find(&src[i + 2..], b"*/").map_or(src.len(), |e| i + 4 + e);
                    continue;
                }
                b'(' => {
                    depth += 1;
                    item = false;
                }
                b')' => {
                    depth -= 1;
                    if depth == 0 {
                        break;
                    }
                }
                b':' if depth == 1 => {
                    colons += 1;
                    item = true;
                }
                b',' if depth == 1 => item = colons > 0,
                b if b.is_ascii_whitespace() => {}
                b'[' if item => {
                    // A named operand, `[out] "=r"(x)`: the constraint follows.
                    let Some(close) = memchr::memchr(b']', &src[i..]) else {
                        break;
                    };
                    i += close;
                }
                b if item && (b.is_ascii_alphabetic() || b == b'_') => {
                    let end = i + src[i..]
                        .iter()
                        .take_while(|b| crate::lexer::is_word_byte(**b))
                        .count();
                    if end - i >= 2 && src.get(skip_blanks(end)) == Some(&b'(') {
                        out.push((i..i + 1, b'"'));
                        out.push((i + 1..end - 1, b' '));
                        out.push((end - 1..end, b'"'));
                    }
                    item = false;
                    i = end;
                    continue;
                }
                _ => item = false,
            }
            i += 1;
        }
    }
    out
}

/// The base of an enum without a name (`enum : size_t { KiB = 1024 };`, gunrock's units), which
/// tree-sitter-cuda parses only after a name: blanks from the `:` to the `{`, so that it sees
/// `enum { ... }`. A name (`enum E : int`, `enum class E : int`) is left alone, as it parses.
fn anonymous_enum_bases(src: &[u8]) -> Vec<(std::ops::Range<usize>, u8)> {
    let mut out = Vec::new();
    for at in crate::lexer::whole_words(src, "enum") {
        let colon = at + b"enum".len();
        let colon = colon + src[colon..].len() - src[colon..].trim_ascii_start().len();
        if src.get(colon) != Some(&b':') || src.get(colon + 1) == Some(&b':') {
            continue;
        }
        // One type: words, blanks and `::` (`unsigned int`, `std::uint8_t`), then `{`.
        let Some(open) = src[colon + 1..]
            .iter()
            .position(|b| {
                !(crate::lexer::is_word_byte(*b) || b.is_ascii_whitespace() || *b == b':')
            })
            .map(|p| colon + 1 + p)
        else {
            continue;
        };
        if src[open] == b'{' && !src[colon + 1..open].trim_ascii().is_empty() {
            out.push((colon..open, b' '));
        }
    }
    out
}

/// The directives of C headers' `extern "C"` wrapper (`#ifdef __cplusplus` / `extern "C" {` /
/// `#endif`, and later `#ifdef __cplusplus` / `}` / `#endif`), whose braces tree-sitter cannot
/// match across the two conditionals (a T008 in nearly every C-API header, R22-2): blanks in
/// their place, so that it sees the block hipcc compiles (it compiles C++, where `__cplusplus`
/// is defined). Only where the openings and the closings pair up; each line's break stays.
fn extern_c_guards(src: &[u8]) -> Vec<(std::ops::Range<usize>, u8)> {
    if memchr::memmem::find(src, b"__cplusplus").is_none() {
        return Vec::new();
    }
    // The line at `at` (without its break) and where the next one starts.
    let line = |at: usize| {
        let end = memchr::memchr(b'\n', &src[at..]).map_or(src.len(), |i| at + i);
        (at..end, (end + 1).min(src.len()))
    };
    // A line's code, without a trailing comment.
    let code = |r: std::ops::Range<usize>| {
        let text = &src[r];
        if memchr::memmem::find(text, b"/*").is_some()
            && memchr::memmem::find(text, b"*/").is_none()
        {
            // A comment that runs on: blanking the line would cut its start off.
            return b"?".to_vec();
        }
        let cut = [
            memchr::memmem::find(text, b"//"),
            memchr::memmem::find(text, b"/*"),
        ]
        .into_iter()
        .flatten()
        .min()
        .unwrap_or(text.len());
        let text = &text[..cut];
        text.iter()
            .filter(|b| !b.is_ascii_whitespace())
            .copied()
            .collect::<Vec<u8>>()
    };
    // Where the first line at or after `at` starts that is neither blank (or a comment) nor a
    // directive other than a conditional (`#include <cstddef>` before `extern "C" {`, R25-1),
    // with the lines a `\` continues.
    let past_directives = |mut at: usize| {
        while at < src.len() {
            let (r, next) = line(at);
            let text = code(r.clone());
            let other = text.is_empty()
                || text.starts_with(b"#")
                    && !text.starts_with(b"#if")
                    && !text.starts_with(b"#el")
                    && !text.starts_with(b"#endif");
            if !other {
                break;
            }
            at = next;
            let mut raw = r;
            while src[raw.clone()].trim_ascii_end().ends_with(b"\\") && at < src.len() {
                (raw, at) = line(at);
            }
        }
        at
    };
    // The `#endif` line that closes the conditional whose last branch starts at `at`, past the
    // conditionals nested in that branch and the lines a `\` continues.
    let matching_endif = |mut at: usize| {
        let mut depth = 0usize;
        while at < src.len() {
            let (r, mut next) = line(at);
            let text = code(r.clone());
            if text == b"?" && src[r.clone()].trim_ascii_start().starts_with(b"#") {
                // A directive whose comment runs on: its words are not read here.
                return None;
            }
            if text.starts_with(b"#if") {
                depth += 1;
            } else if text.starts_with(b"#endif") {
                if depth == 0 {
                    return Some(r);
                }
                depth -= 1;
            }
            let mut raw = r;
            while src[raw.clone()].trim_ascii_end().ends_with(b"\\") && next < src.len() {
                (raw, next) = line(next);
            }
            at = next;
        }
        None
    };
    let mut out = Vec::new();
    let (mut opens, mut closes) = (0usize, 0usize);
    for at in memchr::memmem::find_iter(src, b"__cplusplus") {
        let start = logical_line_start(src, at);
        let (head, next) = line(start);
        if !matches!(
            code(head.clone()).as_slice(),
            b"#ifdef__cplusplus" | b"#ifdefined(__cplusplus)" | b"#ifdefined__cplusplus"
        ) {
            continue;
        }
        let (body, after) = line(past_directives(next));
        let (end, past_end) = line(past_directives(after));
        // A C branch (`#else` / `#include <stdbool.h>` / `#endif`, verifier P1): its `#else` is
        // blanked too, so tree-sitter sees that branch's lines inside the block, as code it
        // parses like any other (C declarations are C++ ones), and its conditionals pair up.
        let (end, c_branch) = match code(end.clone()).as_slice() {
            b"#else" => match matching_endif(past_end) {
                Some(endif) => (endif, Some(end)),
                None => continue,
            },
            e if e.starts_with(b"#endif") => (end, None),
            _ => continue,
        };
        match code(body).as_slice() {
            b"extern\"C\"{" => opens += 1,
            b"}" => closes += 1,
            _ => continue,
        }
        out.push((head, b' '));
        out.extend(c_branch.map(|r| (r, b' ')));
        out.push((end, b' '));
    }
    if opens != closes {
        return Vec::new();
    }
    out
}

/// The `__device__` and `__host__` words of CUDA's extended lambdas (`[] __device__ (float x) {
/// ... }`, `[=] __host__ __device__ (int i) -> int { ... }`, what Thrust calls take with nvcc's
/// `--extended-lambda`), which tree-sitter-cuda cannot parse: the words between a capture list's
/// `]` and the `(`, `{`, `->` or `mutable` that follows. Tree-sitter is shown blanks there, so the
/// lambda and the statement around it parse; the text keeps the words (hip-clang takes them).
/// `[[attribute]] __device__ void f()` is no lambda (`]]`), and is left alone.
fn lambda_qualifiers(src: &[u8]) -> Vec<std::ops::Range<usize>> {
    let skip = |mut i: usize| {
        while src.get(i).is_some_and(|b| b.is_ascii_whitespace()) {
            i += 1;
        }
        i
    };
    let mut words = Vec::new();
    for close in memchr::memchr_iter(b']', src) {
        if close > 0 && src[close - 1] == b']' {
            continue;
        }
        let mut i = skip(close + 1);
        let mut found = Vec::new();
        while let Some(word) = [&b"__device__"[..], b"__host__"]
            .into_iter()
            .find(|w| src[i..].starts_with(w))
        {
            let end = i + word.len();
            if src
                .get(end)
                .is_some_and(|&b| b.is_ascii_alphanumeric() || b == b'_')
            {
                break;
            }
            found.push(i..end);
            i = skip(end);
        }
        let rest = &src[i.min(src.len())..];
        let opens = rest.starts_with(b"(")
            || rest.starts_with(b"{")
            || rest.starts_with(b"->")
            || rest.starts_with(b"mutable");
        if !found.is_empty() && opens {
            words.extend(found);
        }
    }
    words
}

/// Shows CUDA's alignment qualifiers to tree-sitter as C++'s `alignas`, which it parses in every
/// place they stand (before or after `struct`, among a declaration's specifiers, in a typedef):
/// `__align__(16)` as `alignas  (16)` (and `__builtin_align__(16)`, which CUDA's
/// crt/host_defines.h defines as `__align__(a)`, as `alignas          (16)`) and MSVC's
/// `__declspec(align(16))` (what CUDA's headers define `__align__` as on Windows) as
/// `alignas         (16) `. `word` is the keyword's range in
/// `src`; anything else after it (`__declspec(noinline)`, which parses) is left as it is.
fn show_alignment(src: &[u8], word: std::ops::Range<usize>, out: &mut [u8]) {
    let skip = |mut i: usize| {
        while src.get(i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let open = skip(word.end);
    if src.get(open) != Some(&b'(') {
        return;
    }
    let (from, close) = if &src[word.clone()] != b"__declspec" {
        (open, None)
    } else {
        let inner = skip(open + 1);
        if !src[inner..].starts_with(b"align") {
            return;
        }
        let paren = skip(inner + b"align".len());
        if src.get(paren) != Some(&b'(') {
            return;
        }
        let Some(end) = matching_paren(src, paren, true) else {
            return;
        };
        let close = skip(end + 1);
        if src.get(close) != Some(&b')') {
            return;
        }
        (paren, Some(close))
    };
    // `alignas` is shorter than either keyword, so it fits before the `(` it keeps.
    let head = &mut out[word.start..from];
    blank(head);
    head[..b"alignas".len()].copy_from_slice(b"alignas");
    if let Some(close) = close {
        out[close] = b' ';
    }
}

/// The offset of the `)` that closes the `(` at `open`; with `same_line`, only one before the
/// next line break counts (a macro use the blanking must keep on one line).
pub(crate) fn matching_paren(src: &[u8], open: usize, same_line: bool) -> Option<usize> {
    let mut depth = 0usize;
    for (i, &b) in src.iter().enumerate().skip(open) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            b'\n' if same_line => return None,
            _ => {}
        }
    }
    None
}

/// Replaces every byte but line breaks with a space.
fn blank(text: &mut [u8]) {
    for b in text.iter_mut().filter(|b| **b != b'\n' && **b != b'\r') {
        *b = b' ';
    }
}

/// The end of the parenthesized arguments of an attribute-like macro (`__cluster_dims__(2, 1,
/// 1)`) whose name ends at `at`: the byte after the matching `)`, on the same line or a continued
/// one; `None` without a `(` or a match.
fn attribute_args_end(src: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while src.get(i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
        i += 1;
    }
    if src.get(i) != Some(&b'(') {
        return None;
    }
    let mut depth = 0usize;
    while let Some(&b) = src.get(i) {
        match b {
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b';' | b'{' | b'}' | b'"' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

/// The end of the `("...")` after a `_Pragma` ending at `at`, when it is exactly that.
fn pragma_end(src: &[u8], at: usize) -> Option<usize> {
    let skip = |mut i: usize| {
        while src.get(i).is_some_and(|b| matches!(b, b' ' | b'\t')) {
            i += 1;
        }
        i
    };
    let mut i = skip(at);
    if src.get(i) != Some(&b'(') {
        return None;
    }
    i = skip(i + 1);
    if src.get(i) != Some(&b'"') {
        return None;
    }
    i += 1;
    loop {
        match src.get(i)? {
            b'\\' => i += 2,
            b'"' => break,
            b'\n' => return None,
            _ => i += 1,
        }
    }
    i = skip(i + 1);
    (src.get(i) == Some(&b')')).then_some(i + 1)
}

/// The words a macro of the file may expand to for [`user_qualifier_macros`]. The pointer
/// qualifiers among them (`#define RESTRICT __restrict__`, DALI's cuTT) are shown to tree-sitter
/// as blanks, as an empty macro is: a parameter `const float* RESTRICT a` parses, and nothing
/// hipport reads depends on them.
const QUALIFIER_WORDS: &[&[u8]] = &[
    b"__restrict__",
    b"__restrict",
    b"restrict",
    b"__host__",
    b"__device__",
    b"__global__",
    b"__forceinline__",
    b"__noinline__",
    b"__inline__",
    b"inline",
    b"static",
    b"constexpr",
];

/// An object-like macro of the file that expands to qualifiers only (`#define HD __host__
/// __device__`, `#define UNROLL _Pragma("unroll")`), in all its definitions (an empty one
/// included): what tree-sitter is shown for it.
#[derive(Debug, PartialEq)]
pub(crate) struct UserQualifier<'s> {
    /// The macro's name.
    pub(crate) name: &'s [u8],
    /// What tree-sitter is shown: the body when it fits in the name, else `__global__` or
    /// `__device__` when the body holds it and it fits, else nothing (blanks).
    pub(crate) shown: &'static [u8],
    /// Whether a definition marks device code (`__device__` or `__global__`) that `shown` does
    /// not carry.
    pub(crate) hidden_device: bool,
    /// Whether a definition holds `__host__` (host-and-device code, whatever is shown).
    pub(crate) host: bool,
}

/// The qualifier macros of `src` ([`user_qualifier_macros`]), its [`ScopeMacro`]s and its
/// [`alignment_macros`] as `#define` lines that give each the same reading in another file: a
/// header's, for the files that include it.
pub(crate) fn qualifier_defines(src: &[u8]) -> Vec<u8> {
    if memchr::memmem::find(src, b"define").is_none() {
        return Vec::new();
    }
    let mut out = Vec::new();
    for m in user_qualifier_macros(src) {
        out.extend_from_slice(b"#define ");
        out.extend_from_slice(m.name);
        for (word, has) in [
            (m.shown, !m.shown.is_empty()),
            (b"__device__" as &[u8], m.hidden_device),
            (b"__host__", m.host && m.shown != b"__host__"),
        ] {
            if has {
                out.push(b' ');
                out.extend_from_slice(word);
            }
        }
        out.push(b'\n');
    }
    for m in scope_macros(src) {
        out.extend_from_slice(b"#define ");
        out.extend_from_slice(m.name);
        for _ in 0..m.opens {
            out.extend_from_slice(b" namespace _ {");
        }
        for _ in 0..m.closes {
            out.extend_from_slice(b" }");
        }
        out.push(b'\n');
    }
    for name in alignment_macros(src) {
        out.extend_from_slice(b"#define ");
        out.extend_from_slice(name);
        out.extend_from_slice(b"(n) __align__(n)\n");
    }
    out
}

/// The macros of [`UserQualifier`] defined in `src`.
pub(crate) fn user_qualifier_macros(src: &[u8]) -> Vec<UserQualifier<'_>> {
    // Each name with the words of all its definitions (`None` once one is not qualifiers), in
    // the order first defined.
    type Words<'s> = Option<Vec<&'s [u8]>>;
    let mut found: Vec<(&[u8], Words)> = Vec::new();
    let mut at: std::collections::HashMap<&[u8], usize> = std::collections::HashMap::new();
    for (name, body) in object_like_defines(src) {
        let body = qualifier_body(body);
        match at.get(name) {
            Some(&i) => {
                let words = &mut found[i].1;
                if let (Some(all), Some(more)) = (words.as_mut(), body) {
                    all.extend(more);
                } else {
                    *words = None;
                }
            }
            None => {
                at.insert(name, found.len());
                found.push((name, body));
            }
        }
    }
    found
        .into_iter()
        .filter_map(|(name, words)| {
            let words = words?;
            if QUALIFIER_WORDS.contains(&name) || name == b"_Pragma" {
                return None;
            }
            let device = words
                .iter()
                .any(|w| *w == b"__device__" || *w == b"__global__");
            let shown: &'static [u8] = [b"__global__" as &[u8], b"__device__", b"__host__"]
                .into_iter()
                .find(|q| q.len() <= name.len() && words.contains(q))
                .unwrap_or(b"");
            Some(UserQualifier {
                name,
                shown,
                hidden_device: device && !matches!(shown, b"__global__" | b"__device__"),
                host: words.contains(&&b"__host__"[..]),
            })
        })
        .collect()
}

/// The object-like macros `src` defines on one line each (`#define NAME body`), with their
/// bodies as written (a trailing comment included), in order.
fn object_like_defines(src: &[u8]) -> impl Iterator<Item = (&[u8], &[u8])> {
    memchr::memmem::find_iter(src, b"define").filter_map(move |hit| {
        let start = logical_line_start(src, hit);
        let head = src[start..hit].trim_ascii();
        if head != b"#" && !(head.starts_with(b"#") && head[1..].trim_ascii().is_empty()) {
            return None;
        }
        let line_end = memchr::memchr(b'\n', &src[hit..]).map_or(src.len(), |e| hit + e);
        let line = &src[hit + b"define".len()..line_end];
        let line = line.strip_suffix(b"\r").unwrap_or(line);
        if !line.first().is_some_and(|b| matches!(b, b' ' | b'\t')) || line.ends_with(b"\\") {
            return None;
        }
        let line = line.trim_ascii_start();
        let name_len = line
            .iter()
            .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
            .count();
        let name = &line[..name_len];
        if name.is_empty() || name[0].is_ascii_digit() || line.get(name_len) == Some(&b'(') {
            return None;
        }
        Some((name, &line[name_len..]))
    })
}

/// The function-like macros of `src` that give an alignment and nothing else (`#define
/// ALIGN(n) __align__(n)`, `__builtin_align__(n)`, `alignas(n)`, `__attribute__((aligned(n)))`,
/// `__declspec(align(n))`): tree-sitter cannot parse `struct ALIGN(32) big {...}`, so their uses
/// are shown as blanks, as the alignment keywords are shown as `alignas`.
pub(crate) fn alignment_macros(src: &[u8]) -> Vec<&[u8]> {
    let mut out: Vec<&[u8]> = Vec::new();
    if memchr::memmem::find(src, b"align").is_none() {
        return out;
    }
    for hit in memchr::memmem::find_iter(src, b"define") {
        let start = logical_line_start(src, hit);
        let head = src[start..hit].trim_ascii();
        if !(head.starts_with(b"#") && head[1..].trim_ascii().is_empty()) {
            continue;
        }
        let line_end = memchr::memchr(b'\n', &src[hit..]).map_or(src.len(), |e| hit + e);
        let line = src[hit + b"define".len()..line_end].trim_ascii_end();
        if !line.first().is_some_and(|b| matches!(b, b' ' | b'\t')) || line.ends_with(b"\\") {
            continue;
        }
        let line = line.trim_ascii_start();
        let word = |t: &[u8]| {
            t.iter()
                .take_while(|b| b.is_ascii_alphanumeric() || **b == b'_')
                .count()
        };
        let name_len = word(line);
        let name = &line[..name_len];
        let Some(rest) = line[name_len..].strip_prefix(b"(") else {
            continue;
        };
        let rest = rest.trim_ascii_start();
        let param_len = word(rest);
        let param = &rest[..param_len];
        let Some(body) = rest[param_len..].trim_ascii_start().strip_prefix(b")") else {
            continue;
        };
        if name.is_empty() || name[0].is_ascii_digit() || param.is_empty() {
            continue;
        }
        let body: Vec<u8> = body
            .iter()
            .copied()
            .filter(|b| !b.is_ascii_whitespace())
            .collect();
        let p = String::from_utf8_lossy(param);
        let forms = [
            format!("__align__({p})"),
            format!("__builtin_align__({p})"),
            format!("alignas({p})"),
            format!("__attribute__((aligned({p})))"),
            format!("__attribute__((__aligned__({p})))"),
            format!("__declspec(align({p}))"),
        ];
        if forms.iter().any(|f| f.as_bytes() == body.as_slice()) && !out.contains(&name) {
            out.push(name);
        }
    }
    out
}

/// An object-like macro that opens or closes a scope (`#define BEGIN_NS namespace mine {`,
/// `#define END_NS }`, moderngpu's `BEGIN_MGPU_NAMESPACE`): tree-sitter sees a stray name where
/// the braces should be, and cannot parse the declarations around it.
#[derive(Debug, PartialEq)]
pub(crate) struct ScopeMacro<'s> {
    /// The macro's name.
    pub(crate) name: &'s [u8],
    /// How many scopes its body opens (`namespace a {`, `extern "C" {`).
    pub(crate) opens: usize,
    /// How many it closes (`}`).
    pub(crate) closes: usize,
}

/// The [`ScopeMacro`]s `src` defines: bodies of `namespace NAME {` (`NAME` qualified or none),
/// `extern "C" {` and `}`, in any number, and nothing else. A name defined twice differently is
/// left out.
pub(crate) fn scope_macros(src: &[u8]) -> Vec<ScopeMacro<'_>> {
    let mut out: Vec<ScopeMacro> = Vec::new();
    let mut conflicting: Vec<&[u8]> = Vec::new();
    for (name, body) in object_like_defines(src) {
        let cut = memchr::memmem::find(body, b"//")
            .into_iter()
            .chain(memchr::memmem::find(body, b"/*"))
            .min()
            .unwrap_or(body.len());
        let scope = scope_body(body[..cut].trim_ascii()).map(|(opens, closes)| ScopeMacro {
            name,
            opens,
            closes,
        });
        match (out.iter().position(|m| m.name == name), scope) {
            (Some(i), Some(m)) if out[i] == m => {}
            (Some(i), _) => {
                out.remove(i);
                conflicting.push(name);
            }
            (None, Some(m)) if !conflicting.contains(&name) => out.push(m),
            (None, _) => conflicting.push(name),
        }
    }
    out
}

/// The scopes a macro body opens and closes, when it is only `namespace a::b {`, `extern "C" {`
/// and `}`; `None` for anything else (an empty body included).
fn scope_body(mut body: &[u8]) -> Option<(usize, usize)> {
    let (mut opens, mut closes) = (0, 0);
    let word = |t: &[u8]| {
        t.iter()
            .take_while(|&&b| crate::lexer::is_word_byte(b))
            .count()
    };
    while !body.is_empty() {
        if let Some(rest) = body.strip_prefix(b"}") {
            closes += 1;
            body = rest.trim_ascii_start();
            continue;
        }
        let rest = if let Some(rest) = body.strip_prefix(b"extern") {
            rest.trim_ascii_start().strip_prefix(b"\"C\"")?
        } else {
            let rest = body.strip_prefix(b"namespace")?;
            if rest.first().is_some_and(|&b| crate::lexer::is_word_byte(b)) {
                return None;
            }
            // An optional, maybe qualified, name.
            let mut rest = rest.trim_ascii_start();
            loop {
                let n = word(rest);
                rest = rest[n..].trim_ascii_start();
                match rest.strip_prefix(b"::") {
                    Some(more) if n > 0 => rest = more.trim_ascii_start(),
                    _ => break,
                }
            }
            rest
        };
        body = rest
            .trim_ascii_start()
            .strip_prefix(b"{")?
            .trim_ascii_start();
        opens += 1;
    }
    (opens + closes > 0 && (opens == 0 || closes == 0)).then_some((opens, closes))
}

/// The uses of `macros` in `src` outside directives, comments and literals, when the scopes
/// they open and close balance: the ranges to show tree-sitter as blanks (the braces gone on
/// both sides, the declarations between them parse as the file's own).
fn balanced_scope_uses(src: &[u8], macros: &[ScopeMacro]) -> Vec<std::ops::Range<usize>> {
    if macros.is_empty() {
        return Vec::new();
    }
    let (mut opens, mut closes) = (0, 0);
    let mut uses = Vec::new();
    for id in crate::lexer::identifiers(src) {
        let Some(m) = macros.iter().find(|m| m.name == &src[id.clone()]) else {
            continue;
        };
        if in_directive(src, id.start) {
            continue;
        }
        opens += m.opens;
        closes += m.closes;
        uses.push(id);
    }
    if opens == closes {
        uses
    } else {
        Vec::new()
    }
}

/// Whether one of the macros `names` qualifies the declaration that starts at `start` and
/// declares its name at `declarator`: it stands among the words before `start` (back to the
/// previous token that is not a word) or between `start` and `declarator`.
pub(crate) fn qualified_by(src: &[u8], start: usize, declarator: usize, names: &[&[u8]]) -> bool {
    let word = crate::lexer::is_word_byte;
    let mut from = start;
    // Back over the words on the same line only: a macro's own `#define` line or a comment
    // naming it above a host function does not qualify that function.
    loop {
        let mut i = from;
        while i > 0 && matches!(src[i - 1], b' ' | b'\t') {
            i -= 1;
        }
        let mut w = i;
        while w > 0 && word(src[w - 1]) {
            w -= 1;
        }
        if w == i {
            break;
        }
        from = w;
    }
    let end = declarator.max(start).min(src.len());
    crate::lexer::identifiers(&src[from..end])
        .into_iter()
        .any(|r| names.contains(&&src[from + r.start..from + r.end]))
}

/// The qualifier words of a macro body (`None` when it holds anything else; a trailing comment
/// is not part of it): `__host__ __device__`, `__forceinline__`, `_Pragma("unroll")`, nothing.
fn qualifier_body(body: &[u8]) -> Option<Vec<&[u8]>> {
    let cut = memchr::memmem::find(body, b"//")
        .into_iter()
        .chain(memchr::memmem::find(body, b"/*"))
        .min()
        .unwrap_or(body.len());
    let body = body[..cut].trim_ascii();
    if body.starts_with(b"_Pragma") {
        return (pragma_end(body, b"_Pragma".len()) == Some(body.len())).then(Vec::new);
    }
    let words: Vec<&[u8]> = body
        .split(|b| b.is_ascii_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    words
        .iter()
        .all(|w| QUALIFIER_WORDS.contains(w))
        .then_some(words)
}

/// Whether offset `at` (on a directive's line) is in the body of a `#define`, after the name it
/// defines and that name's parameter list.
pub(crate) fn in_define_body(src: &[u8], at: usize) -> bool {
    let start = logical_line_start(src, at);
    let line = &src[start..at];
    let mut i = line.iter().take_while(|b| b.is_ascii_whitespace()).count();
    if line.get(i) != Some(&b'#') {
        return false;
    }
    i += 1;
    i += line[i..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    if !line[i..].starts_with(b"define") {
        return false;
    }
    i += b"define".len();
    i += line[i..]
        .iter()
        .take_while(|&&b| b == b' ' || b == b'\t')
        .count();
    let name = line[i..]
        .iter()
        .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
        .count();
    if name == 0 {
        return false;
    }
    i += name;
    // A function-like macro's parameters end at the first `)`.
    if line.get(i) == Some(&b'(') {
        match line[i..].iter().position(|&b| b == b')') {
            Some(p) => i += p + 1,
            None => return false,
        }
    }
    i < line.len()
}

/// Where the line holding offset `at` begins, back over the lines it continues with `\`: the
/// first line of a multi-line directive.
pub(crate) fn logical_line_start(src: &[u8], at: usize) -> usize {
    let mut start = memchr::memrchr(b'\n', &src[..at]).map_or(0, |i| i + 1);
    while start > 0 {
        let before = &src[..start - 1];
        let before = before.strip_suffix(b"\r").unwrap_or(before);
        if !before.ends_with(b"\\") {
            break;
        }
        start = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
    }
    start
}

/// The lines of the `#pragma` directives that stand between a `for`, `while`, `if`, `switch`,
/// `else` or `do` header and its body (`for (...)` / `#pragma unroll` / `for (...) stmt;`, the
/// MAGMA idiom): tree-sitter takes a directive among statements only, so there the header gets
/// an empty body and the loop below it stands alone. A pragma changes no code the passes read;
/// tree-sitter is shown blanks there.
pub(crate) fn pragmas_before_bodies(src: &[u8]) -> Vec<std::ops::Range<usize>> {
    let mut out = Vec::new();
    let is_pragma = |line: &[u8]| {
        line.trim_ascii()
            .strip_prefix(b"#")
            .map(<[u8]>::trim_ascii_start)
            .and_then(|t| t.strip_prefix(b"pragma"))
            .is_some_and(|t| !t.first().is_some_and(|&b| crate::lexer::is_word_byte(b)))
    };
    for hit in memchr::memmem::find_iter(src, b"pragma") {
        let start = memchr::memrchr(b'\n', &src[..hit]).map_or(0, |i| i + 1);
        let end = statement_macros::logical_line_end(src, hit);
        if !is_pragma(&src[start..end]) {
            continue;
        }
        // Back over blanks and the pragmas stacked above this one.
        let mut before = src[..start].trim_ascii_end();
        loop {
            let line = memchr::memrchr(b'\n', before).map_or(0, |i| i + 1);
            if !is_pragma(&before[line..]) {
                break;
            }
            before = before[..line].trim_ascii_end();
        }
        if ends_control_header(before) {
            out.push(start..end);
        }
    }
    out
}

/// Whether `text` ends with the header of a statement that takes a body: `for (...)`,
/// `while (...)`, `if (...)` (`if constexpr (...)`), `switch (...)`, `else` or `do`.
fn ends_control_header(text: &[u8]) -> bool {
    let word_before = |t: &[u8]| -> (usize, usize) {
        let t = t.trim_ascii_end();
        let n = t
            .iter()
            .rev()
            .take_while(|&&b| crate::lexer::is_word_byte(b))
            .count();
        (t.len() - n, t.len())
    };
    let (a, b) = word_before(text);
    if matches!(&text[a..b], b"else" | b"do") {
        return true;
    }
    if text.last() != Some(&b')') {
        return false;
    }
    let mut depth = 0usize;
    let mut open = None;
    for (i, &c) in text.iter().enumerate().rev().take(4096) {
        match c {
            b')' => depth += 1,
            b'(' => {
                depth -= 1;
                if depth == 0 {
                    open = Some(i);
                    break;
                }
            }
            _ => {}
        }
    }
    let Some(open) = open else { return false };
    let (mut a, mut b) = word_before(&text[..open]);
    if &text[a..b] == b"constexpr" {
        (a, b) = word_before(&text[..a]);
    }
    let keyword = matches!(&text[a..b], b"for" | b"while" | b"if" | b"switch");
    keyword && (a == 0 || !crate::lexer::is_word_byte(text[a - 1]))
}

/// Whether offset `at` is on a preprocessor directive's line (or a line it continues).
pub(crate) fn in_directive(src: &[u8], at: usize) -> bool {
    let line = &src[logical_line_start(src, at)..];
    line.iter()
        .find(|&&b| b != b' ' && b != b'\t')
        .is_some_and(|&b| b == b'#')
}

#[cfg(test)]
mod tests {
    use super::*;

    /// R22-2: a C header's `extern "C"` wrapper, with the usual comments and a CRLF line.
    #[test]
    fn extern_c_wrappers_parse() {
        let src = b"#include <cuda_runtime.h>\n#ifdef __cplusplus\nextern \"C\" {\n#endif\n\
                    typedef int mybool;\ninline mybool check(cudaError_t e) { return e == cudaSuccess; }\n\
                    #if defined(__cplusplus)\r\n}  /* extern \"C\" */\n#endif // __cplusplus\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src).is_empty(),
            "{:?}",
            error_lines(&tree, src)
        );
        let shown = parseable(src, b"");
        assert_eq!(shown.len(), src.len());
        assert_eq!(
            shown.iter().filter(|b| **b == b'\n').count(),
            src.iter().filter(|b| **b == b'\n').count()
        );
        // Other directives and blank lines in the branches: `#include <cstddef>` before the
        // opening (warp-rnnt's core.h, R25-1), a continued `#define` before a closing.
        let src = b"#ifdef __cplusplus\n#include <cstddef>\n\n// C API\nextern \"C\" {\n#endif\n\
                    int run(size_t n);\n#ifdef __cplusplus\n#define END_C \\\n  1\n}\n\n#endif\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src).is_empty(),
            "{:?}",
            error_lines(&tree, src)
        );
        assert_eq!(extern_c_guards(src).len(), 4);
        // A C branch after the opening (verifier P1), with a conditional of its own and a
        // continued `#define`; and after a closing.
        let src = b"#ifdef __cplusplus\nextern \"C\" {\n#else\n#include <stdbool.h>\n\
                    #if !defined(INLINE)\n#define INLINE static \\\n  inline\n#endif\n\
                    #endif /* __cplusplus */\n__global__ void k(bool *p) { p[0] = true; }\n\
                    #ifdef __cplusplus\n}\n#else\n/* C */\n#endif\nint after;\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src).is_empty(),
            "{:?}",
            error_lines(&tree, src)
        );
        assert_eq!(extern_c_guards(src).len(), 6);
        let shown = parseable(src, b"");
        assert_eq!(shown.len(), src.len());
        // An `#else` without its `#endif`, or one whose `#endif` line has a comment that runs on,
        // is left alone.
        for other in [
            &b"#ifdef __cplusplus\nextern \"C\" {\n#else\nint c;\n#if X\n#endif\n"[..],
            b"#ifdef __cplusplus\nextern \"C\" {\n#else\n#endif /* a\n b */\nint f();\n\
              #ifdef __cplusplus\n}\n#endif\n",
        ] {
            assert!(extern_c_guards(other).is_empty(), "{other:?}");
        }
        // An opening without its closing (or other code in the branch) is left alone.
        for other in [
            &b"#ifdef __cplusplus\nextern \"C\" {\n#endif\nint f();\n"[..],
            b"#ifdef __cplusplus\nextern \"C\" { int g();\n#endif\n",
            b"#ifdef __cplusplus /* a\n b */\n}\n#endif\n",
            b"#ifdef __cplusplus\n#if X\nextern \"C\" {\n#endif\n#endif\nint f();\n\
              #ifdef __cplusplus\n}\n#endif\n",
        ] {
            assert!(extern_c_guards(other).is_empty(), "{other:?}");
        }
    }

    /// A macro for an asm operand's constraint (AMGX's `#define __PTR "l"`).
    #[test]
    fn asm_constraint_macros_parse() {
        let src = b"#define __PTR \"l\"\n__device__ float ld(const float* ptr) {\n  float ret;\n\
                    asm volatile ( \"ld.global.cg.f32 %0, [%1];\" : \"=f\"(ret) : __PTR(ptr) );\n\
                    asm(\"ld.global.cg.v2.f32 {%0, %1}, [%2];\" : \"=f\"(ret), [b] \"=f\"(ret)\n\
                    \x20   : __PTR (ptr + 0) : \"memory\");\n  return ret;\n}\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src).is_empty(),
            "{}",
            tree.root_node().to_sexp()
        );
        let shown = parseable(src, b"");
        let shown = std::str::from_utf8(&shown).unwrap();
        assert_eq!(shown.len(), src.len());
        assert!(shown.contains(": \"   \"(ptr) )"), "{shown}");
        assert!(shown.contains(": \"   \" (ptr + 0)"), "{shown}");
        assert!(shown.contains("#define __PTR \"l\""), "{shown}");
        // Calls in the template's operands' expressions are left alone.
        let call = b"void f() { asm(\"mov %0, %1;\" : \"=r\"(x) : \"r\"(g(y))); }\n";
        assert!(asm_constraint_macros(call).is_empty());
    }

    /// An enum without a name but with a base (gunrock's `enum : size_t { KiB = 1024 };`).
    #[test]
    fn anonymous_enums_with_a_base_parse() {
        let src = b"namespace p {\nenum : size_t { KiB = 1024, K = 1024 };\n}\n\
                    enum : unsigned int {A};\nenum:std::uint8_t\n{ B };\n\
                    enum E : int { C };\nenum class F : long { D };\nint x = (enum_ok ? 1 : 2);\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src).is_empty(),
            "{}",
            tree.root_node().to_sexp()
        );
        assert_eq!(anonymous_enum_bases(src).len(), 3);
    }

    #[test]
    fn explicit_class_template_instantiations_parse() {
        let src = b"template <unsigned N> struct W { void f(); };\n\
                    template class W< 64>;\ntemplate class W<128>;\n\
                    extern template struct ns::W<1, 2>; template union U<float>;\n\
                    __global__ void k(float* p) { p[threadIdx.x] = 1.0f; }\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src).is_empty(),
            "{:?}",
            error_lines(&tree, src)
        );
        let shown = parseable(src, b"");
        assert_eq!(shown.len(), src.len());
        assert!(shown.windows(22).any(|w| w == b"         class W< 64>;"));
        // Not a template declaration, nor a class with a body.
        for other in [
            &b"template <class T> class V;"[..],
            b"template class X<1> { };",
            b"f(template class);",
        ] {
            assert!(class_instantiations(other).is_empty(), "{other:?}");
        }
    }

    #[test]
    fn pointer_packs_and_restrict_references_parse_and_folds_stay() {
        let src = b"template <typename K, typename... Ts> struct B {\n\
                    __device__ void merge(K* __restrict__ keys, Ts* __restrict__... ps) const {\n\
                      zero(ps...); ((*ps = 0), ...);\n\
                    }\n\
                    __device__ auto one(K& __restrict__ key, Ts& __restrict__... p) const\n\
                        -> std::enable_if_t<sizeof...(Ts) == 1, void> { merge(&key, &p...); }\n\
                    __device__ void all(Ts**... pp, Ts *const... cp) { (void)(... && pp); }\n\
                    };\n\
                    template <typename... Ts> int sum(Ts... xs) { return (xs * ... * 1) + (xs && ...); }\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src).is_empty(),
            "{:?}",
            error_lines(&tree, src)
        );
        let shown = parseable(src, b"");
        assert_eq!(shown.len(), src.len());
        let shown = std::str::from_utf8(&shown).unwrap();
        assert!(shown.contains("Ts  __restrict__... ps"), "{shown}");
        assert!(shown.contains("K* __restrict__ keys"), "{shown}");
        assert!(
            shown.contains(
                &"K& __restrict__ key, Ts& __restrict__... p"
                    .replace("__restrict__", &" ".repeat(12))
            ),
            "{shown}"
        );
        assert!(shown.contains("Ts  ... pp, Ts  const... cp"), "{shown}");
        assert!(shown.contains("(xs * ... * 1) + (xs && ...)"), "{shown}");
        assert!(shown.contains("((*ps = 0), ...)"), "{shown}");
        // No pack, no mask: a C variadic function, an expression with `&`.
        for other in [&b"void f(int n, ...);"[..], b"x = a & __restrict__;"] {
            assert!(pack_declarators(other).is_empty(), "{other:?}");
            assert!(restrict_references(other).is_empty(), "{other:?}");
        }
    }

    #[test]
    fn spaced_launch_chevrons_are_found_in_pairs_and_nothing_else() {
        let src = b"k << < g, b >> > (x); f(a << 2, b >> 1); k<<<1, 1>>>(y);\n\
                    std::vector<std::vector<int>> > v; os << \"<\" ; operator<< <T>(o, t);\n\
                    k <<<f(a > b), dim3(1, 1)>> > (z); m << <1, 2>>>(w);";
        let text = |r: &std::ops::Range<usize>| std::str::from_utf8(&src[r.clone()]).unwrap();
        let found: Vec<(&str, &str)> = spaced_launches(src)
            .iter()
            .map(|(o, c)| (text(o), text(c)))
            .collect();
        assert_eq!(found, [("<< <", ">> >"), ("<<<", ">> >"), ("<< <", ">>>")]);
        let shown = parseable(src, b"");
        assert!(
            shown.starts_with(b"k <<<  g, b >>>  (x);"),
            "{:?}",
            String::from_utf8_lossy(&shown)
        );
        let tree = parse(
            b"void f() { k << < 1, n, s >> > (p, n); }",
            Duration::from_secs(5),
        )
        .unwrap();
        assert!(!tree.root_node().has_error());
    }

    #[test]
    fn has_include_tests_parse_and_their_paths_are_found() {
        let src = "#if __has_include(\"a.h\") || __has_include_next( <b/c.h> ) || MY__has_include(<x>)\nvoid f() { k<<<1, 1>>>(); }\n#elif __has_includeX(<y>) || __has_include(<z\n#endif\n";
        let found: Vec<(usize, &str)> = has_include_paths(src.as_bytes())
            .map(|(at, p)| (at, p.inner))
            .collect();
        assert_eq!(found, [(18, "a.h"), (48, "b/c.h")]);
        let good = b"#if __has_include(\"a.h\") || __has_include_next( <b/c.h> )\nvoid f() { k<<<1, 1>>>(); }\n#endif\n";
        let tree = parse(good, Duration::from_secs(5)).unwrap();
        let sexp = tree.root_node().to_sexp();
        assert!(!tree.root_node().has_error(), "{sexp}");
        assert!(sexp.contains("kernel_call_syntax"), "{sexp}");
        // Bytes after the path that are not UTF-8 do not hide it.
        let bytes = b"#if __has_include(<cuda.h>) \xff\n#endif\n";
        assert_eq!(
            has_include_paths(bytes)
                .map(|(at, _)| at)
                .collect::<Vec<_>>(),
            [18]
        );
    }

    #[test]
    fn qualifier_macros_parse_as_qualifiers_outside_directives_comments_and_literals() {
        let src = "#define C10_HOST_DEVICE __host__ __device__\n\
                   #define WRAP(x) \\\n  C10_DEVICE x\n\
                   C10_HOST_DEVICE inline float sq(float x) { return x * x; }\n\
                   template <typename T> C10_DEVICE T id(T v) { return v; }\n\
                   CUTLASS_HOST_DEVICE int one() { return 1; }\n\
                   void CUDART_CB done(void* u) {}\n\
                   // C10_DEVICE in a comment\nconst char* s = \"C10_DEVICE\";\n";
        let shown = parseable(src.as_bytes(), b"");
        let shown = std::str::from_utf8(&shown).unwrap();
        assert_eq!(shown.len(), src.len());
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[0], "#define C10_HOST_DEVICE __host__ __device__");
        assert_eq!(
            lines[2], "  C10_DEVICE x",
            "a continued directive line stays"
        );
        assert!(
            lines[3].starts_with("__device__      inline float sq"),
            "{}",
            lines[3]
        );
        assert!(lines[4].contains("> __device__ T id"), "{}", lines[4]);
        assert!(
            lines[5].starts_with("__host__ __device__ int one"),
            "{}",
            lines[5]
        );
        assert!(lines[6].starts_with("void           done"), "{}", lines[6]);
        assert_eq!(lines[7], "// C10_DEVICE in a comment");
        assert!(lines[8].contains("\"C10_DEVICE\""));
        let tree = parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src.as_bytes()).is_empty(),
            "{}",
            tree.root_node().to_sexp()
        );
        // CUTLASS's unroll pragma and PyTorch's one-argument launch bounds parse too.
        let more = "template <int N> CUTLASS_DEVICE void f(float* a) {\n  CUTLASS_PRAGMA_UNROLL\n  for (int i = 0; i < N; ++i) a[i] = 0;\n}\n\
                    __global__ void C10_LAUNCH_BOUNDS_1(256) k(float* a) { f<4>(a); }\n";
        let tree = parse(more.as_bytes(), Duration::from_secs(5)).unwrap();
        let sexp = tree.root_node().to_sexp();
        assert!(error_lines(&tree, more.as_bytes()).is_empty(), "{sexp}");
        assert!(sexp.contains("launch_bounds"), "{sexp}");
    }

    #[test]
    fn qualifier_macros_of_the_file_and_pragma_operators_parse() {
        let src = "#ifdef __CUDACC__\n#define HD __host__ __device__\n#else\n#define HD\n#endif\n\
                   #define DEVICE_FN __device__ __forceinline__ // inline\n\
                   #define UNROLL _Pragma(\"unroll\")\n\
                   #define SQ(x) ((x) * (x))\n#define N 4\n#define MIXED __device__ int\n\
                   HD float sq(float x) { return x * x; }\n\
                   template <typename T> DEVICE_FN T id(T v) { return v; }\n\
                   __global__ void k(float* p) {\n  UNROLL\n  for (int i = 0; i < N; ++i) p[i] = SQ(p[i]);\n\
                   _Pragma(\"unroll (2)\") for (int i = 0; i < 2; ++i) p[i] = 0;\n}\n";
        let macros = user_qualifier_macros(src.as_bytes());
        let names: Vec<(&str, &str, bool)> = macros
            .iter()
            .map(|m| {
                (
                    std::str::from_utf8(m.name).unwrap(),
                    std::str::from_utf8(m.shown).unwrap(),
                    m.hidden_device,
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                ("HD", "", true),
                ("DEVICE_FN", "", true),
                ("UNROLL", "", false)
            ],
            "a function-like macro, a value and a body with a type are not qualifiers"
        );
        let shown = parseable(src.as_bytes(), b"");
        let shown = std::str::from_utf8(&shown).unwrap();
        assert_eq!(shown.len(), src.len());
        assert!(shown.contains("\n   float sq"), "{shown}");
        let pragma = "_Pragma(\"unroll (2)\")";
        assert!(
            shown.contains(&format!(
                "\n{} for (int i = 0; i < 2",
                " ".repeat(pragma.len())
            )),
            "{shown}"
        );
        assert!(
            shown.contains("#define UNROLL _Pragma(\"unroll\")"),
            "{shown}"
        );
        let tree = parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src.as_bytes()).is_empty(),
            "{}",
            tree.root_node().to_sexp()
        );
        // A macro long enough shows its device qualifier; one defined as anything else is left.
        let long = user_qualifier_macros(
            b"#define DEVICE_INLINE __device__ inline\n#define X __device__\n#define X int\n",
        );
        assert_eq!(long.len(), 1);
        assert_eq!(
            (long[0].shown, long[0].hidden_device),
            (&b"__device__"[..], false)
        );
        // Where the macro stands: before a template's declaration, or among its specifiers.
        let t = b"template <class T> HD T f();\nstatic HD int g();\nint HDX h();\n";
        let at = |s: &[u8]| memchr::memmem::find(t, s).unwrap();
        assert!(qualified_by(t, at(b"T f"), at(b"f()"), &[b"HD"]));
        assert!(qualified_by(t, at(b"static"), at(b"g()"), &[b"HD"]));
        assert!(!qualified_by(t, at(b"int HDX"), at(b"h()"), &[b"HD"]));
    }

    /// realuser17 U2: HIP's `HIP_DYNAMIC_SHARED(type, var);` declares `extern __shared__ type
    /// var[]` and parses as that declaration, with or without its `;`, with a template type,
    /// in a function and at file scope; a `#define` of it is left alone.
    #[test]
    fn hip_dynamic_shared_declarations_parse() {
        let src = "#define HIP_DYNAMIC_SHARED(type, var) extern __shared__ type var[];\n\
                   HIP_DYNAMIC_SHARED(double, top)\n\
                   __global__ void k(float* out) {\n\
                   #if defined(__HIP_PLATFORM_AMD__)\n\
                   \x20 HIP_DYNAMIC_SHARED(float, buf);\n\
                   \x20 HIP_DYNAMIC_SHARED( unsigned char ,raw )\n\
                   \x20 HIP_DYNAMIC_SHARED(Pair<int, long>, pairs);\n\
                   #else\n\
                   \x20 extern __shared__ float buf[];\n\
                   #endif\n\
                   \x20 buf[threadIdx.x] = raw[0] + pairs[0].a;\n\
                   \x20 __syncthreads();\n\
                   \x20 out[threadIdx.x] = buf[(threadIdx.x + 1) % blockDim.x];\n}\n";
        let tree = parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src.as_bytes()).is_empty(),
            "{}",
            tree.root_node().to_sexp()
        );
        let shown = parseable(src.as_bytes(), b"");
        let shown = std::str::from_utf8(&shown).unwrap();
        assert_eq!(shown.len(), src.len());
        assert!(
            shown.contains("  extern __shared__  float* buf ;\n"),
            "{shown}"
        );
        assert!(
            shown.contains("\nextern __shared__  double* top;\n"),
            "{shown}"
        );
        assert!(
            shown.contains("#define HIP_DYNAMIC_SHARED(type, var) extern"),
            "{shown}"
        );
    }

    /// realuser17 U4: `#define RESTRICT __restrict__` in the file (or a header it includes)
    /// makes kernel parameter lists parse, as `__restrict__` written out does.
    #[test]
    fn restrict_macros_of_the_file_and_its_headers_parse() {
        let src = "#define RESTRICT __restrict__\n#define restrict __restrict__\n\
                   #define RESTRICT2 __restrict // two spellings\n\
                   __global__ void k(const int* RESTRICT x, int* RESTRICT2 out, float* restrict f) {\n\
                   \x20 unsigned int m = __ballot_sync(0xffffffff, x[threadIdx.x] > 0);\n\
                   \x20 out[threadIdx.x] = __popc(m);\n}\n";
        let tree = parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src.as_bytes()).is_empty(),
            "{}",
            tree.root_node().to_sexp()
        );
        let names: Vec<&[u8]> = user_qualifier_macros(src.as_bytes())
            .iter()
            .map(|m| m.name)
            .collect();
        assert_eq!(names, [&b"RESTRICT"[..], b"RESTRICT2"]);
        // From a header the file includes.
        let user = "__global__ void k(const float* MY_RESTRICT a, float* MY_RESTRICT b) { b[0] = a[0]; }\n";
        let headers = qualifier_defines(b"#pragma once\n#define MY_RESTRICT __restrict__\n");
        let tree =
            parse_with_qualifiers(user.as_bytes(), Duration::from_secs(5), &headers).unwrap();
        assert!(
            error_lines(&tree, user.as_bytes()).is_empty(),
            "{}",
            tree.root_node().to_sexp()
        );
    }

    #[test]
    fn user_alignment_macros_are_blank_and_parse() {
        // verify10's T008 probes: `struct ALIGN(32) big` with `ALIGN` a function-like macro
        // that gives only an alignment, in any of CUDA's, C++'s, GCC's or MSVC's spellings.
        for body in [
            "__align__(n)",
            "__builtin_align__( n )",
            "alignas(n)",
            "__attribute__((aligned(n)))",
            "__declspec(align(n))",
        ] {
            let src = format!(
                "#define ALIGN(n) {body}\n\
                 struct ALIGN(32) big {{ double v[4]; }};\n\
                 typedef struct ALIGN (8) {{ float a, b; }} pair_t;\n\
                 __global__ void k(big *p) {{ __shared__ ALIGN(16) float buf[64]; p[0].v[0] = buf[0]; }}\n"
            );
            let shown = parseable(src.as_bytes(), b"");
            let shown = std::str::from_utf8(&shown).unwrap();
            assert_eq!(shown.len(), src.len());
            assert!(
                shown.contains(&format!("#define ALIGN(n) {body}")),
                "{shown}"
            );
            assert!(shown.contains("struct           big"), "{shown}");
            let tree = parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
            assert!(!tree.root_node().has_error(), "{body}: {shown}");
            // From a header the file includes.
            let use_only = src.lines().skip(1).collect::<Vec<_>>().join("\n");
            let header = qualifier_defines(src.as_bytes());
            let shown = parseable(use_only.as_bytes(), &header);
            assert!(
                std::str::from_utf8(&shown)
                    .unwrap()
                    .contains("struct           big"),
                "{body}: {}",
                String::from_utf8_lossy(&header)
            );
        }
        // A macro that does more than align, or takes two parameters, is left alone.
        for define in [
            "#define ALIGN(n) __align__(n) static",
            "#define ALIGN(n, m) __align__(n)",
            "#define ALIGN(n) ((n) + 31 & ~31)",
        ] {
            let src = format!("{define}\nstruct ALIGN(32) big {{ double v[4]; }};\n");
            assert!(alignment_macros(src.as_bytes()).is_empty(), "{define}");
        }
    }

    #[test]
    fn alignment_qualifiers_are_shown_as_alignas_and_parse() {
        let src = "struct __align__(16) P { float x; };\n\
                   typedef struct __align__ (8) { float a; } Q;\n\
                   struct __declspec( align(16) ) D { int x; };\n\
                   struct __declspec(dllexport) E { int x; };\n\
                   #define ALIGNED(n) __align__(n)\n\
                   __global__ void k() { extern __shared__ __align__(sizeof(float4)) unsigned char raw[]; }\n\
                   // __align__(4) in a comment\n\
                   struct __builtin_align__(16) _double4 { double x, y, z, w; };\n";
        let shown = parseable(src.as_bytes(), b"");
        let shown = std::str::from_utf8(&shown).unwrap();
        assert_eq!(shown.len(), src.len());
        assert!(shown.contains("struct alignas  (16) P"), "{shown}");
        assert!(shown.contains("struct alignas   (8) {"), "{shown}");
        assert!(
            shown.contains("struct alignas          (16)   D"),
            "{shown}"
        );
        assert!(shown.contains("__declspec(dllexport)"), "{shown}");
        assert!(shown.contains("#define ALIGNED(n) __align__(n)"), "{shown}");
        assert!(
            shown.contains("__shared__ alignas  (sizeof(float4))"),
            "{shown}"
        );
        assert!(shown.contains("// __align__(4)"), "{shown}");
        assert!(
            shown.contains("struct alignas          (16) _double4"),
            "{shown}"
        );
        let tree = parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, src.as_bytes()).is_empty(),
            "{}",
            tree.root_node().to_sexp()
        );
    }

    #[test]
    fn extended_lambdas_parse_with_their_qualifiers_hidden() {
        let src = "void f(thrust::device_vector<float>& v, float* out) {\n\
                   \x20 float s = thrust::transform_reduce(thrust::device, v.begin(), v.end(),\n\
                   \x20     [] __device__(float x) { return fabsf(x); }, 0.0f, thrust::plus<float>());\n\
                   \x20 auto g = [=] __host__ __device__ (int i) -> float { return out[i]; };\n\
                   \x20 auto h = [out] __device__ mutable { return out[0]; };\n\
                   }\n\
                   [[nodiscard]] __device__ int one() { return 1; }\n\
                   float a[4] __device__;\n";
        let shown = parseable(src.as_bytes(), b"");
        let shown = std::str::from_utf8(&shown).unwrap();
        assert_eq!(shown.len(), src.len());
        assert!(shown.contains("[]           (float x)"), "{shown}");
        assert!(shown.contains("[=]                     (int i)"), "{shown}");
        assert!(shown.contains("[out]            mutable"), "{shown}");
        assert!(
            shown.contains("[[nodiscard]] __device__ int one"),
            "{shown}"
        );
        assert!(shown.contains("a[4] __device__;"), "{shown}");
        let lambdas = &src[..src.find("[[").unwrap()];
        let tree = parse(lambdas.as_bytes(), Duration::from_secs(5)).unwrap();
        assert!(
            error_lines(&tree, lambdas.as_bytes()).is_empty(),
            "{}",
            tree.root_node().to_sexp()
        );
    }

    #[test]
    fn statement_macros_without_a_semicolon_parse_as_statements() {
        let src = "#define CHECK(x) do { if ((x) != 0) return; } while (0);\n\
                   void f(float* p) {\n  CHECK(g(p))\n  float* d;\n  CUDA_CHECK(g(d)) // c\n  k<<<1, 1>>>(d);\n\
                   \x20 if (p) CHECK(g(p))\n  CUDA_CHECK(g(p))\n}\n";
        let tree = parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
        let sexp = tree.root_node().to_sexp();
        assert!(error_lines(&tree, src.as_bytes()).is_empty(), "{sexp}");
        assert!(
            sexp.contains("(declaration type: (primitive_type) declarator: (pointer_declarator"),
            "{sexp}"
        );
        assert!(sexp.contains("kernel_call_syntax"), "{sexp}");
        // The last call before `}` has no blank to show a `;` in: tree-sitter's MISSING `;` is
        // the one the macro supplies, not an error.
        assert_eq!(error_count(&tree), 1, "{sexp}");

        // Through a fallback alias of the file (warp-rnnt's binding.cpp): `TORCH_CHECK` stands
        // for the all-caps `AT_CHECK`.
        let src = "#ifndef TORCH_CHECK\n#define TORCH_CHECK AT_CHECK\n#endif\n\
                   int f(int n) {\n  TORCH_CHECK(n == 4, \"n must be 4\")\n\n  const auto m = n + 1;\n\
                   \x20 if (n) {\n    TORCH_CHECK(m == 2, \"m\")\n\n    n = g(m,\n          n);\n  }\n  return n;\n}\n";
        let tree = parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
        let sexp = tree.root_node().to_sexp();
        assert!(error_lines(&tree, src.as_bytes()).is_empty(), "{sexp}");

        // Not statement macros: a lowercase name the file does not define, a macro of the file
        // whose body needs the `;`, a call outside functions.
        for bad in [
            "void f(float* p) {\n  check(g(p))\n  float* d;\n}\n",
            "#define CHECK(x) do { g(x); } while (0)\nvoid f(float* p) {\n  CHECK(p)\n  float* d;\n}\n",
            "void f();\n  REGISTER(f)\n  int g;\n",
        ] {
            let tree = parse(bad.as_bytes(), Duration::from_secs(5)).unwrap();
            assert!(
                !error_lines(&tree, bad.as_bytes()).is_empty(),
                "{bad}\n{}",
                tree.root_node().to_sexp()
            );
        }
    }

    #[test]
    fn parses_a_launch() {
        let src = b"__global__ void k(int *x) { x[0] = 1; }\nvoid f(int *x) { k<<<1, 1>>>(x); }\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(
            !tree.root_node().has_error(),
            "{}",
            tree.root_node().to_sexp()
        );
        assert!(tree.root_node().to_sexp().contains("kernel_call_syntax"));
        assert!(error_lines(&tree, src).is_empty());
    }

    #[test]
    fn flat_walk_matches_the_cursor_walk() {
        let src =
            b"#include <a.h>\n__global__ void k(int *x) { if (x) { x[0] = 1; } }\nint y = ;\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        let flat = Flat::new(tree.root_node());
        let mut walked = Vec::new();
        let mut cursor = tree.walk();
        loop {
            walked.push(cursor.node());
            if cursor.goto_first_child() {
                continue;
            }
            while !cursor.goto_next_sibling() {
                if !cursor.goto_parent() {
                    break;
                }
            }
            if cursor.node() == tree.root_node() {
                break;
            }
        }
        assert_eq!(flat.nodes, walked);
        for (i, n) in flat.nodes.iter().enumerate() {
            let end = flat.ends[i] as usize;
            let inside = flat.nodes[i + 1..end]
                .iter()
                .all(|d| d.start_byte() >= n.start_byte() && d.end_byte() <= n.end_byte());
            assert!(inside, "{i}");
            assert!(flat.nodes[end..].iter().all(|d| d.parent() != Some(*n)));
        }
        let kinds = KindTable::new(0u8, &[("identifier", 1), ("ERROR", 2)]);
        for n in &flat.nodes {
            let want = match n.kind() {
                "identifier" => 1,
                "ERROR" => 2,
                _ => 0,
            };
            assert_eq!(kinds.of(*n), want, "{}", n.kind());
        }
        assert!(flat.nodes.iter().any(|n| n.is_error()));
        assert_eq!(
            field_id("name"),
            language().field_id_for_name("name").unwrap().get()
        );
    }

    /// N-d: `#pragma unroll` between a `for` header and its body without braces (MAGMA's
    /// sgemm) parses, the inner loop as the outer one's body; a pragma among statements stays.
    #[test]
    fn pragmas_between_a_loop_header_and_its_body_parse() {
        let src = "__global__ void k(unsigned *out, const float *x) {\n  unsigned r[4];\n  int n;\n\
                   \x20 #pragma unroll\n  for (n = 0; n < 4; n++)\n    #pragma unroll\n    # pragma nounroll\n\
                   \x20   for (int m = 0; m < f(1, (2)); m++)\n      r[n] = __ballot_sync(0xffffffff, x[n] > 0.f);\n\
                   \x20 if constexpr (sizeof(int) == 4)\n#pragma unroll\n    while (n--) out[n] = r[n];\n\
                   \x20 else\n  #pragma unroll 2\n    for (;;) break;\n}\n";
        let shown = parseable(src.as_bytes(), b"");
        let shown = std::str::from_utf8(&shown).unwrap();
        assert_eq!(shown.len(), src.len());
        let lines: Vec<&str> = shown.lines().collect();
        assert_eq!(lines[3], "  #pragma unroll", "among statements: kept");
        for i in [5, 6, 10, 13] {
            assert!(lines[i].trim().is_empty(), "{i}: {}", lines[i]);
        }
        let tree = parse(src.as_bytes(), Duration::from_secs(5)).unwrap();
        let sexp = tree.root_node().to_sexp();
        assert!(error_lines(&tree, src.as_bytes()).is_empty(), "{sexp}");
        assert!(
            sexp.contains("(for_statement initializer: (assignment_expression")
                && sexp.contains("body: (for_statement"),
            "{sexp}"
        );
        for other in [
            &b"x = 1;\n#pragma unroll\nfor (;;) {}"[..],
            b"f(a)\n#pragma once",
            b"my_for(a)\n#pragma unroll",
        ] {
            assert!(pragmas_before_bodies(other).is_empty(), "{other:?}");
        }
    }

    #[test]
    fn scope_macros_are_only_namespace_and_extern_braces() {
        let src = b"#define A namespace a {\n#define B namespace a::b { namespace c { /* x */\n\
                    #  define C }}\n#define D extern \"C\" {\n#define E namespace {\n\
                    #define F struct x {\n#define G } namespace b {\n#define H\n#define I(x) }\n\
                    #define J }\n#define J int\n#define K namespacex {\n";
        let got: Vec<(&str, usize, usize)> = scope_macros(src)
            .iter()
            .map(|m| (std::str::from_utf8(m.name).unwrap(), m.opens, m.closes))
            .collect();
        assert_eq!(
            got,
            [
                ("A", 1, 0),
                ("B", 2, 0),
                ("C", 0, 2),
                ("D", 1, 0),
                ("E", 1, 0)
            ]
        );
        let defines = String::from_utf8(qualifier_defines(src)).unwrap();
        assert!(
            defines.contains("#define B namespace _ { namespace _ {\n#define C } }\n"),
            "{defines}"
        );
        // Shown as blanks where they balance, not in directives.
        let uses = b"#define O namespace o {\n#define X }\nO\nint f();\nX\n#define Y O\n";
        let shown = parseable(uses, b"");
        assert!(shown
            .starts_with(b"#define O namespace o {\n#define X }\n \nint f();\n \n#define Y O\n"));
        assert!(!parse(uses, Duration::from_secs(5))
            .unwrap()
            .root_node()
            .has_error());
        let unbalanced = b"#define O namespace o {\nO\nint f();\n";
        assert_eq!(&parseable(unbalanced, b"")[..], &unbalanced[..]);
    }

    #[test]
    fn macro_conditions_are_shown_parenthesised() {
        let src = b"void f() { if M(a, (b)) { } while N {} if M(a)\n g(); if M(a){}\n\
                    if constexpr (x) {} if (a) {} if M(a) + 1 {} }\n";
        let shown = parseable(src, b"");
        assert_eq!(
            std::str::from_utf8(&shown).unwrap(),
            "void f() { if(M(a, (b))){ } while(N){} if  (a)\n g(); if  (a){}\n\
             if constexpr (x) {} if (a) {} if M(a) + 1 {} }\n"
        );
    }

    #[test]
    fn reports_error_lines() {
        let src = b"int a;\nint b = ;\n}\n";
        let tree = parse(src, Duration::from_secs(5)).unwrap();
        assert!(!error_lines(&tree, src).is_empty());
        assert!(error_count(&tree) > 0);
    }
}
