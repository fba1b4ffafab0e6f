// A growable FIFO ring buffer: queues push at the back and pop at the front without allocating
// once they have reached their working size. 24 bytes when empty (a pointer and three 32-bit
// counters), because a large fabric holds millions of them: a switch port's 8 class queues, and
// a NIC's control queue and 8 per-class rings of flows ready to send.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>

namespace dcqcn {

template <typename T>
class Ring {
 public:
  bool empty() const { return size_ == 0; }
  size_t size() const { return size_; }
  T& front() { return buf_[head_]; }
  const T& front() const { return buf_[head_]; }
  const T& operator[](size_t i) const { return buf_[(head_ + i) & (capacity_ - 1)]; }
  void push_back(const T& v) {
    if (size_ == capacity_) Grow();
    buf_[(head_ + size_) & (capacity_ - 1)] = v;
    ++size_;
  }
  T pop_front() {
    T v = buf_[head_];
    head_ = (head_ + 1) & (capacity_ - 1);
    --size_;
    return v;
  }

 private:
  // Out of line: the inline push_back stays small where queues are pushed once per hop.
  [[gnu::noinline, gnu::cold]] void Grow() {
    const uint32_t bigger = capacity_ == 0 ? 8 : capacity_ * 2;
    std::unique_ptr<T[]> buf(new T[bigger]());
    for (uint32_t i = 0; i < size_; ++i) buf[i] = buf_[(head_ + i) & (capacity_ - 1)];
    buf_ = std::move(buf);
    capacity_ = bigger;
    head_ = 0;
  }
  std::unique_ptr<T[]> buf_;
  uint32_t capacity_ = 0;  // a power of two
  uint32_t head_ = 0;
  uint32_t size_ = 0;
};
static_assert(sizeof(Ring<void*>) == 24, "a large fabric holds millions of rings");

}  // namespace dcqcn
