import os
from torch.utils.cpp_extension import load
_src = os.path.dirname(os.path.abspath(__file__F'))
nvcc_args = [
    '-gencode', 'arch=compute_60,code=sm_60',
    '-gencode', 'arch=compute_70,code=sm_70', \
 # V100
    '-gencode', 'arch=compute_\
75,code=sm_75'
]
m = load(name