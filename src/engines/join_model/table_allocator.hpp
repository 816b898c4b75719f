#pragma once

// The allocator of the quarter tables' large arrays (tens to hundreds of MiB
// from n = 20 on), for two costs that ran on one thread while the others
// waited: zeroing an array its owner fills whole next, and the page faults
// of first touching it. Its construct() without a value default-initializes
// (a vector of integers grows without zeroing), and a block of 2 MiB or more
// is aligned to 2 MiB and marked MADV_HUGEPAGE, so that first touch takes
// one fault per 2 MiB, not per 4 KiB (where transparent huge pages are
// "madvise", as Debian's default is). n = 20's table build on one thread:
// half of it was a memset and faults before either change.

#include <sys/mman.h>

#include <cstddef>
#include <cstdlib>
#include <new>
#include <type_traits>
#include <utility>

namespace nqueens::detail {

template <typename T>
class table_allocator {
 public:
  using value_type = T;

  table_allocator() noexcept = default;
  template <typename U>
  table_allocator(const table_allocator<U>&) noexcept {}

  T* allocate(std::size_t count) {
    if (count > static_cast<std::size_t>(-1) / sizeof(T) - huge_page) throw std::bad_array_new_length();
    const std::size_t bytes = count * sizeof(T);
    if (bytes < huge_page) return static_cast<T*>(::operator new (bytes, std::align_val_t{alignof(T)}));
    const std::size_t rounded = (bytes + huge_page - 1) / huge_page * huge_page;
    void* block = std::aligned_alloc(huge_page, rounded);
    if (block == nullptr) throw std::bad_alloc();
    ::madvise(block, rounded, MADV_HUGEPAGE);  // advice: without it, the same memory in 4 KiB pages
    return static_cast<T*>(block);
  }
  void deallocate(T* block, std::size_t count) noexcept {
    if (count * sizeof(T) < huge_page) {
      ::operator delete (block, std::align_val_t{alignof(T)});
    } else {
      std::free(block);
    }
  }

  template <typename U>
  void construct(U* place) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(place)) U;
  }
  template <typename U, typename... Args>
  void construct(U* place, Args&&... args) {
    ::new (static_cast<void*>(place)) U(std::forward<Args>(args)...);
  }

  template <typename U>
  bool operator==(const table_allocator<U>&) const noexcept {
    return true;
  }

 private:
  static constexpr std::size_t huge_page = std::size_t{2} << 20;
};

}  // namespace nqueens::detail
