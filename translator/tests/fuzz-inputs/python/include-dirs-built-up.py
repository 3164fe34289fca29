# Include directories built up as mmcv and pytorch3d do, and flag-like strings that are tests.
import glob
import os
import os.path as osp
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

here = osp.dirname(osp.abspath(__file__))
extensions_dir = osp.join(here, "csrc")
include_dirs = [extensions_dir]
include_dirs.append(os.path.abspath('./csrc/cuda'))
include_dirs.insert(0, osp.realpath(osp.join(here, 'csrc', 'common/cuda')))
include_dirs.extend([os.path.normpath("csrc/cuda/../cuda"), np.get_include()])
include_dirs += [os.path.join(ROOT, SUB, 'cuda')]
nvcc_args = ["-O3", "--threads", "4"]
CC_arg = "-ccbin={}".format(os.environ.get("CC"))
if any(a.startswith(("-ccbin", "--compiler-bindir")) for a in nvcc_args) or "-G" in nvcc_args:
    pass
setup(name='x', ext_modules=[CUDAExtension('x', glob.glob('csrc/cuda/*.cu'), include_dirs=include_dirs,
      extra_compile_args={'nvcc': nvcc_args})], cmdclass={'build_ext': BuildExtension})
