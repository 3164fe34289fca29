# A PyTorch C++/CUDA extension: fused bias + GELU and a row softmax.
from setuptools import setup
from torch.utils.cpp_extension import BuildExtension, CUDAExtension

setup(
    name="fused_ops",
    ext_modules=[
        CUDAExtension(
            name="fused_ops",
            sources=["csrc/bindings.cpp", "csrc/fused_ops.cu"],
            extra_compile_args={
                "cxx": ["-O3"],
                "nvcc": ["-O3", "--use_fast_math", "-lineinfo", "-arch=sm_80"],
            },
        )
    ],
    cmdclass={"build_ext": BuildExtension},
)
