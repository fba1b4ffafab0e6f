// Messages between the processes of one run (MPI ranks running the same binary): trivially
// copyable values' bytes, appended in order and read back in the same order.
#pragma once

#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "core/error.h"

namespace dcqcn {

template <class T>
void PutBytes(std::string& out, const T& value) {
  static_assert(std::is_trivially_copyable_v<T>);
  out.append(reinterpret_cast<const char*>(&value), sizeof(T));
}

// A vector: its length, then its elements.
template <class T>
void PutVector(std::string& out, const std::vector<T>& values) {
  static_assert(std::is_trivially_copyable_v<T>);
  PutBytes(out, static_cast<uint64_t>(values.size()));
  out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(T));
}

class ByteReader {
 public:
  explicit ByteReader(std::string_view bytes) : bytes_(bytes) {}
  template <class T>
  T Get() {
    static_assert(std::is_trivially_copyable_v<T>);
    T value;
    Read(&value, sizeof(T));
    return value;
  }
  template <class T>
  std::vector<T> GetVector() {
    const auto n = Get<uint64_t>();
    if (n > (bytes_.size() - at_) / sizeof(T)) throw InvariantError("a message ended early");
    std::vector<T> values(n);
    Read(values.data(), n * sizeof(T));
    return values;
  }
  void Read(void* to, size_t n) {
    if (n > bytes_.size() - at_) throw InvariantError("a message between ranks ended early");
    std::memcpy(to, bytes_.data() + at_, n);
    at_ += n;
  }
  bool done() const { return at_ == bytes_.size(); }

 private:
  std::string_view bytes_;
  size_t at_ = 0;
};

}  // namespace dcqcn
