//! Runtime tests of translated corpus kernels.
