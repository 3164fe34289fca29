import os

from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

here = os.path.dirname(os.path.abspath(__file__))

setup(
    name="scale_ext",
    ext_modules=[
        CUDAExtension(
            name="scale_ext._C",
            sources=["csrc/binding.cpp", "csrc/cuda/scale.cu"],
            include_dirs=[os.path.join(here, "csrc", "include")],
            extra_compile_args={
                "cxx": ["-O3", "-Icsrc/include"],
                "nvcc": ["-O3", "-Icsrc/include"],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
