// Lists the nodes of a tree-sitter tree in pre-order, as a TSTreeCursor walk would visit them,
// by reading the tree's subtrees directly. A cursor step costs several hundred instructions
// (it keeps a stack of positions and re-derives visibility at every move); this walk costs a
// few dozen per node. It relies on tree-sitter's private headers, so it is tied to the
// tree-sitter release in Cargo.lock; `parse::tests` checks it against the cursor walk.

#include "subtree.h"
#include "tree.h"
#include "language.h"
#include "length.h"

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

static void frame_init(Frame *f, const TSLanguage *lang, Subtree s, Length position,
                       uint32_t open) {
  f->children = ts_subtree_children(s);
  f->child_count = s.ptr->child_count;
  f->child_index = 0;
  f->structural_index = 0;
  f->aliases = ts_language_alias_sequence(lang, s.ptr->production_id);
  f->position = position;
  f->open = open;
}

// Writes the nodes under `root` (itself first) to `nodes` and, for each, the index just past its
// subtree to `ends`. Returns the number of nodes, or UINT32_MAX when `capacity` is too small or
// memory runs out (the caller then walks with a cursor).
uint32_t hipport_flat(TSNode root, TSNode *nodes, uint32_t *ends, uint32_t capacity) {
  const TSTree *tree = root.tree;
  const TSLanguage *lang = tree->language;
  const Subtree *root_subtree = (const Subtree *)root.id;
  if (capacity == 0) return UINT32_MAX;
  uint32_t count = 0;
  nodes[count] = root;
  ends[count] = 1;
  count++;
  if (ts_subtree_child_count(*root_subtree) == 0) return count;

  uint32_t cap = 64, depth = 0;
  Frame *stack = malloc(cap * sizeof(Frame));
  if (!stack) return UINT32_MAX;
  Length root_pos = {root.context[0], {root.context[1], root.context[2]}};
  frame_init(&stack[depth++], lang, *root_subtree, root_pos, 0);

  while (depth > 0) {
    Frame *top = &stack[depth - 1];
    if (top->child_index == top->child_count) {
      if (top->open != UINT32_MAX) ends[top->open] = count;
      depth--;
      continue;
    }
    const Subtree *child = &top->children[top->child_index];
    Length position = top->position;
    bool visible = ts_subtree_visible(*child);
    TSSymbol alias = 0;
    if (!ts_subtree_extra(*child)) {
      if (top->aliases) {
        alias = top->aliases[top->structural_index];
        visible |= alias != 0;
      }
      top->structural_index++;
    }
    top->position = length_add(position, ts_subtree_size(*child));
    top->child_index++;
    if (top->child_index < top->child_count) {
      top->position = length_add(top->position, ts_subtree_padding(top->children[top->child_index]));
    }

    uint32_t open;
    if (visible) {
      if (count == capacity) {
        free(stack);
        return UINT32_MAX;
      }
      open = count;
      nodes[count] = ts_node_new(tree, child, position, alias);
      ends[count] = count + 1;
      count++;
      if (ts_subtree_child_count(*child) == 0) continue;
    } else if (ts_subtree_visible_child_count(*child) > 0) {
      open = UINT32_MAX;
    } else {
      continue;
    }
    if (depth == cap) {
      cap *= 2;
      Frame *grown = realloc(stack, cap * sizeof(Frame));
      if (!grown) {
        free(stack);
        return UINT32_MAX;
      }
      stack = grown;
    }
    frame_init(&stack[depth++], lang, *child, position, open);
  }
  free(stack);
  return count;
}
