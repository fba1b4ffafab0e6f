// A vector whose capacity is fixed when it is made: elements are built in place, one block, and
// never move, so they need be neither copyable nor movable, and element i's address is computed
// from the block's (no array of pointers to load first, as with vector<unique_ptr<T>>).
#pragma once

#include <cstddef>
#include <memory>
#include <new>
#include <stdexcept>
#include <utility>

namespace dcqcn {

template <typename T>
class FixedVector {
 public:
  explicit FixedVector(size_t capacity = 0)
      : data_(capacity == 0 ? nullptr : std::allocator<T>().allocate(capacity)),
        capacity_(capacity) {}
  FixedVector(const FixedVector&) = delete;
  FixedVector& operator=(const FixedVector&) = delete;
  ~FixedVector() {
    for (size_t i = size_; i-- > 0;) data_[i].~T();
    if (data_ != nullptr) std::allocator<T>().deallocate(data_, capacity_);
  }

  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == capacity_) throw std::length_error("FixedVector: full");
    T* t = ::new (static_cast<void*>(data_ + size_)) T(std::forward<Args>(args)...);
    ++size_;
    return *t;
  }
  size_t size() const { return size_; }
  size_t capacity() const { return capacity_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }

 private:
  T* data_;
  size_t capacity_;
  size_t size_ = 0;
};

}  // namespace dcqcn
