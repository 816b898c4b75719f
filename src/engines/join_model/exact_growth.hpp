#pragma once

// Scratch arrays that grow to exactly what they must hold: a vector's own
// growth can double its capacity and holds the old and the new arrays at
// once, where a memory bound prices each array by its size (quadrant_memory).

#include <cstddef>
#include <vector>

namespace nqueens::detail {

/// Makes `v` hold `size` elements, with no more capacity than that where it
/// must grow. What it held is lost when it grows: for scratch that is
/// written before it is read.
template <typename T>
void resize_exactly(std::vector<T>& v, std::size_t size) {
  if (size > v.capacity()) {
    std::vector<T>().swap(v);
    v.reserve(size);
  }
  v.resize(size);
}

/// Makes `v` able to hold `size` elements, with no more capacity than that
/// where it must grow; what it held is lost then (reserve would copy it,
/// holding the old and the new arrays at once).
template <typename T>
void reserve_exactly(std::vector<T>& v, std::size_t size) {
  if (size > v.capacity()) {
    std::vector<T>().swap(v);
    v.reserve(size);
  }
}

/// The bytes `v` holds (its capacity).
template <typename T>
std::size_t held_bytes(const std::vector<T>& v) noexcept {
  return v.capacity() * sizeof(T);
}

/// Lets `v` go where it holds more than `bytes`: scratch kept at its largest
/// size would hold that beside what other buffers grow to next.
template <typename T>
void release_beyond(std::vector<T>& v, std::size_t bytes) noexcept {
  if (held_bytes(v) > bytes) std::vector<T>().swap(v);
}

}  // namespace nqueens::detail
