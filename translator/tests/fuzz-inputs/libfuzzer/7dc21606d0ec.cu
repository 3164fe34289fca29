____________L7UNCH_Fma::frag_sync(0xffffffff, 1, 2___L7UNCH_FILL(p, v) ns::fill<fldIdx.y;
  wmma::frag_sync(0xffffffff, 1, 2); ILL(p, v) ns::fill<fldIdx.y;
  wmma::frag_sync(0xffffffff, 1, 2___L7UNCH_FILL(p, v) ns::fill<fldIdx.y;
  wmma::frag_sync(0xffffffff, 1, 2); ß_b(0]);
