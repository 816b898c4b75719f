// Compiled into each program that links nqueens::nqueens from an installed
// CMake package (nqueensConfig.cmake adds it), and into the build tree's
// tests (nqueens::gpu_module_in_build_tree): it tells the library where the
// GPU engine's module lies, NQUEENS_GPU_MODULE_DIRECTORY: the package
// defines it at the head of its copy of this file as its own LIBDIR/nqueens
// wherever it was installed. The library is static, so it cannot find that
// place by itself.
//
// Weak: a project may link nqueens::nqueens into several of its targets that
// end in one program, and each then holds this definition.

extern "C" const char* nqueens_gpu_module_directory();

extern "C" __attribute__((weak)) const char* nqueens_gpu_module_directory() { return NQUEENS_GPU_MODULE_DIRECTORY; }
