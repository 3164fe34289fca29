from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

nvcc_flags = [
    "-O3",
    "--use_fast_math",
    "--expt-relaxed-constexpr",
    "-lineinfo",
    "-gencode=arch=compute_80,code=sm_80",
    "-gencode=arch=compute_90,code=sm_90",
]

setup(
    name="fused_gelu",
    version="0.1.0",
    ext_modules=[
        CUDAExtension(
            name="fused_gelu._C",
            sources=["csrc/binding.cpp", "csrc/gelu_kernel.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": nvcc_flags + ["-Xcompiler", "-fno-strict-aliasing"],
            },
            libraries=["cudart"],
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
