# Cross-compiling for AArch64 on a Debian x86-64 machine (scripts/aarch64.sh):
# Debian's cross compiler (g++-aarch64-linux-gnu), the arm64 libraries
# installed beside the native ones (multiarch: libtbb-dev:arm64,
# libgtest-dev:arm64), and qemu-aarch64 to run what was built (the arm64
# loader and libraries are at / under multiarch; the cross compiler's own
# /usr/aarch64-linux-gnu holds another build of glibc, whose loader hangs
# in the first pthread_create under qemu 7.2 with the multiarch libc).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /usr/lib/aarch64-linux-gnu /usr)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE BOTH)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE BOTH)
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64 -L /)
