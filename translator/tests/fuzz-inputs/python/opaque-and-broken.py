from torch.utils.cpp_extension import load_inline
import pathlib
def build(param, opts):
    with open("k.cu") as f: text = f.read()
    fmt = "__global__ void k() {{ int x = {}; }}".format(3)
    named = "\N{BULLET} cudaFree(0);"
    a = load_inline("a", "", text)
    b = load_inline("b", "", [param, fmt, named, pathlib.Path("k.cu").read_text(), None])
    c = load_inline("c", **opts)
    d = load_inline(name="d", cpp_sources='cudaStream_t s();\r\n', cuda_sources=['cudaFree(0);\
' "x" + 'cudaMalloc(0, 0);'], functions=['k'])
    e = load_inline('e', '', '__global__ void k() {}\n
