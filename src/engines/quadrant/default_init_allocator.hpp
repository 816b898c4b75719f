#pragma once

// An allocator whose construct() without a value default-initializes, so a
// vector of integers grows without zeroing what its owner fills next: the
// quarter tables' placements are written whole by a parallel pass, and
// zeroing them first was half of n = 20's table build, on one thread (a
// memset and its page faults, before any worker could help).

#include <memory>
#include <new>
#include <utility>

namespace nqueens::detail {

template <typename T, typename Base = std::allocator<T>>
class default_init_allocator : public Base {
  using traits = std::allocator_traits<Base>;

 public:
  template <typename U>
  struct rebind {
    using other = default_init_allocator<U, typename traits::template rebind_alloc<U>>;
  };

  using Base::Base;

  template <typename U>
  void construct(U* place) noexcept(std::is_nothrow_default_constructible_v<U>) {
    ::new (static_cast<void*>(place)) U;
  }
  template <typename U, typename... Args>
  void construct(U* place, Args&&... args) {
    traits::construct(static_cast<Base&>(*this), place, std::forward<Args>(args)...);
  }
};

}  // namespace nqueens::detail
