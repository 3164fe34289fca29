// Lists the nodes of a tree-sitter tree in pre-order, and the children of one node, as a
// TSTreeCursor would visit them, by reading the tree's subtrees directly. A cursor step costs
// several hundred instructions (it keeps a stack of positions and re-derives visibility at every
// move); these walks cost a few dozen per node. They rely on tree-sitter's private headers, so
// they are tied to the tree-sitter release pinned in Cargo.toml; tests/flat_walk.rs checks them
// against the cursor, node for node.

#include "subtree.h"
#include "tree.h"
#include "language.h"
#include "length.h"

#include <string.h>

#if defined(_MSC_VER)
#define ALWAYS_INLINE static __forceinline
#else
#define ALWAYS_INLINE static inline __attribute__((always_inline))
#endif

typedef struct {
  const Subtree *children;
  uint32_t child_count;
  uint32_t child_index;
  uint32_t structural_index;
  const TSSymbol *aliases;
  Length position;
  // Index of the visible node these children belong to, or UINT32_MAX for a hidden node.
  uint32_t open;
} Frame;

static inline void frame_init(Frame *f, const TSLanguage *lang, Subtree s, Length position,
                       uint32_t open) {
  f->children = ts_subtree_children(s);
  f->child_count = s.ptr->child_count;
  f->child_index = 0;
  f->structural_index = 0;
  f->aliases = ts_language_alias_sequence(lang, s.ptr->production_id);
  f->position = position;
  f->open = open;
}

// Takes the next child of `top`'s node: sets `*at` to its position and `*alias` to its alias
// symbol, moves `top` past it, and returns whether it is visible.
static inline bool frame_next(Frame *top, const Subtree **child, Length *at, TSSymbol *alias) {
  *child = &top->children[top->child_index];
  *at = top->position;
  bool visible = ts_subtree_visible(**child);
  *alias = 0;
  if (!ts_subtree_extra(**child)) {
    if (top->aliases) {
      *alias = top->aliases[top->structural_index];
      visible |= *alias != 0;
    }
    top->structural_index++;
  }
  top->position = length_add(*at, ts_subtree_size(**child));
  top->child_index++;
  if (top->child_index < top->child_count) {
    top->position = length_add(top->position, ts_subtree_padding(top->children[top->child_index]));
  }
  return visible;
}

// A stack of frames: sixteen in place, then on the heap as nesting grows.
typedef struct {
  Frame fixed[16];
  Frame *frames;
  uint32_t cap, depth;
} Stack;

static void stack_init(Stack *s) {
  s->frames = s->fixed;
  s->cap = 16;
  s->depth = 0;
}

static void stack_free(Stack *s) {
  if (s->frames != s->fixed) free(s->frames);
}

// Pushes a frame for `subtree`'s children; false when memory runs out. Inlined: it runs for
// every node with children, and a call cost a third of the walk.
ALWAYS_INLINE bool stack_push(Stack *s, const TSLanguage *lang, Subtree subtree, Length position,
                       uint32_t open) {
  if (s->depth == s->cap) {
    Frame *grown = malloc(2 * s->cap * sizeof(Frame));
    if (!grown) return false;
    memcpy(grown, s->frames, s->depth * sizeof(Frame));
    stack_free(s);
    s->frames = grown;
    s->cap *= 2;
  }
  frame_init(&s->frames[s->depth++], lang, subtree, position, open);
  return true;
}

// The position of a node, as subtrees measure it.
static Length node_position(TSNode n) {
  return (Length){n.context[0], {n.context[1], n.context[2]}};
}

// The kind id `ts_node_symbol` gives a node made from `child` with `alias`.
static inline TSSymbol kind_of(const TSLanguage *lang, Subtree child, TSSymbol alias) {
  return ts_language_public_symbol(lang, alias ? alias : ts_subtree_symbol(child));
}

// Writes the nodes under `root` (itself first) to `nodes`, their kind ids to `kinds` and, for
// each, the index just past its subtree to `ends`. With `keep` (a flag for each of the 65536
// kind ids), only the nodes of kept kinds are written, the others looked through as if hidden:
// `ends` then counts kept nodes. Returns the number written, or UINT32_MAX when `capacity` is
// too small or memory runs out (the caller then walks with a cursor).
uint32_t hipport_flat(TSNode root, const uint8_t *keep, TSNode *nodes, uint16_t *kinds,
                      uint32_t *ends, uint32_t capacity) {
  const TSTree *tree = root.tree;
  const TSLanguage *lang = tree->language;
  const Subtree *root_subtree = (const Subtree *)root.id;
  if (capacity == 0) return UINT32_MAX;
  uint32_t count = 0;
  nodes[count] = root;
  kinds[count] = ts_node_symbol(root);
  ends[count] = 1;
  count++;
  if (ts_subtree_child_count(*root_subtree) == 0) return count;

  Stack stack;
  stack_init(&stack);
  stack_push(&stack, lang, *root_subtree, node_position(root), 0);
  while (stack.depth > 0) {
    Frame *top = &stack.frames[stack.depth - 1];
    if (top->child_index == top->child_count) {
      if (top->open != UINT32_MAX) ends[top->open] = count;
      stack.depth--;
      continue;
    }
    const Subtree *child;
    Length position;
    TSSymbol alias;
    bool visible = frame_next(top, &child, &position, &alias);

    uint32_t open;
    TSSymbol kind = visible ? kind_of(lang, *child, alias) : 0;
    if (visible && keep && !keep[kind]) visible = false;
    if (visible) {
      if (count == capacity) {
        stack_free(&stack);
        return UINT32_MAX;
      }
      open = count;
      nodes[count] = ts_node_new(tree, child, position, alias);
      kinds[count] = kind;
      ends[count] = count + 1;
      count++;
      if (ts_subtree_child_count(*child) == 0) continue;
    } else if (ts_subtree_visible_child_count(*child) > 0) {
      open = UINT32_MAX;
    } else {
      continue;
    }
    if (!stack_push(&stack, lang, *child, position, open)) {
      stack_free(&stack);
      return UINT32_MAX;
    }
  }
  stack_free(&stack);
  return count;
}

// Writes the children of `parent` to `out`, as a cursor's first-child and next-sibling steps
// visit them (hidden nodes are looked through). Returns their number, or UINT32_MAX when there
// are more than `capacity` or memory runs out.
uint32_t hipport_children(TSNode parent, TSNode *out, uint32_t capacity) {
  const TSTree *tree = parent.tree;
  const TSLanguage *lang = tree->language;
  const Subtree *subtree = (const Subtree *)parent.id;
  if (ts_subtree_child_count(*subtree) == 0) return 0;
  Stack stack;
  stack_init(&stack);
  uint32_t count = 0;
  stack_push(&stack, lang, *subtree, node_position(parent), UINT32_MAX);
  while (stack.depth > 0) {
    Frame *top = &stack.frames[stack.depth - 1];
    if (top->child_index == top->child_count) {
      stack.depth--;
      continue;
    }
    const Subtree *child;
    Length at;
    TSSymbol alias;
    bool visible = frame_next(top, &child, &at, &alias);
    if (visible) {
      if (count == capacity) {
        stack_free(&stack);
        return UINT32_MAX;
      }
      out[count++] = ts_node_new(tree, child, at, alias);
    } else if (ts_subtree_visible_child_count(*child) > 0 &&
               !stack_push(&stack, lang, *child, at, UINT32_MAX)) {
      stack_free(&stack);
      return UINT32_MAX;
    }
  }
  stack_free(&stack);
  return count;
}

// The first child of `node`, which has some, as `ts_node_child(node, 0)` gives it: the first
// visible node a cursor reaches, descending into hidden children that have visible ones.
static TSNode first_child(TSNode node) {
  const TSLanguage *lang = node.tree->language;
  Frame frame;
  frame_init(&frame, lang, *(const Subtree *)node.id, node_position(node), UINT32_MAX);
  while (frame.child_index < frame.child_count) {
    const Subtree *child;
    Length at;
    TSSymbol alias;
    if (frame_next(&frame, &child, &at, &alias)) return ts_node_new(node.tree, child, at, alias);
    if (ts_subtree_visible_child_count(*child) > 0) frame_init(&frame, lang, *child, at, UINT32_MAX);
  }
  return (TSNode){{0, 0, 0, 0}, NULL, NULL};
}

// What `ts_node_child_by_field_id` returns, found the same way (the field's entries in the
// production's field map, then the children from the first entry's structural index), without
// making a node for each child passed over or re-deriving the parent's position through the
// public API. tests/flat_walk.rs checks it against tree-sitter for every node and field.
TSNode hipport_child_by_field_id(TSNode self, TSFieldId field_id) {
  const TSNode none = {{0, 0, 0, 0}, NULL, NULL};
recur:;
  Subtree subtree = *(const Subtree *)self.id;
  if (!field_id || ts_subtree_child_count(subtree) == 0 || subtree.ptr->visible_child_count == 0)
    return none;
  const TSTree *tree = self.tree;
  const TSLanguage *lang = tree->language;
  const TSFieldMapEntry *field_map, *field_map_end;
  ts_language_field_map(lang, subtree.ptr->production_id, &field_map, &field_map_end);
  if (field_map == field_map_end) return none;
  while (field_map->field_id < field_id) {
    field_map++;
    if (field_map == field_map_end) return none;
  }
  while (field_map_end[-1].field_id > field_id) {
    field_map_end--;
    if (field_map == field_map_end) return none;
  }
  Frame frame;
  frame_init(&frame, lang, subtree, node_position(self), UINT32_MAX);
  while (frame.child_index < frame.child_count) {
    const Subtree *child;
    Length at;
    TSSymbol alias;
    bool visible = frame_next(&frame, &child, &at, &alias);
    if (ts_subtree_extra(*child)) continue;
    if (frame.structural_index - 1 < field_map->child_index) continue;
    TSNode node = ts_node_new(tree, child, at, alias);
    if (field_map->inherited) {
      // Hidden nodes' fields belong to their visible parent: the last candidate is searched
      // in place of this node, the others in turn.
      if (field_map + 1 == field_map_end) {
        self = node;
        goto recur;
      }
      TSNode found = hipport_child_by_field_id(node, field_id);
      if (found.id) return found;
      field_map++;
      if (field_map == field_map_end) return none;
    } else if (visible) {
      return node;
    } else if (ts_node_child_count(node) > 0) {
      // A hidden node with visible children stands for its first one.
      return first_child(node);
    } else {
      field_map++;
      if (field_map == field_map_end) return none;
    }
  }
  return none;
}
