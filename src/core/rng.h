// Our own random generator and distributions, so results are bit-identical on every platform
// and library version (std:: distributions are not). xoshiro256** seeded through splitmix64.
#pragma once

#include <cmath>
#include <cstdint>

namespace dcqcn {

class Rng {
 public:
  // `stream` gives independent sequences for one seed (e.g. one per switch or per purpose).
  explicit Rng(uint64_t seed = 1, uint64_t stream = 0) {
    uint64_t x = seed ^ (0x9e3779b97f4a7c15ULL * (stream + 1));
    for (uint64_t& s : s_) s = SplitMix(x);
  }

  uint64_t Next() {
    const uint64_t result = Rotl(s_[1] * 5, 7) * 9;
    const uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = Rotl(s_[3], 45);
    return result;
  }

  // Uniform in [0, 1) with 53 random bits.
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }

  // Uniform integer in [0, n) without modulo bias (Lemire's method).
  uint64_t Below(uint64_t n) {
    __uint128_t m = static_cast<__uint128_t>(Next()) * n;
    uint64_t low = static_cast<uint64_t>(m);
    if (low < n) {
      uint64_t threshold = (0 - n) % n;
      while (low < threshold) {
        m = static_cast<__uint128_t>(Next()) * n;
        low = static_cast<uint64_t>(m);
      }
    }
    return static_cast<uint64_t>(m >> 64);
  }

  // Exponential with the given mean (inverse transform; log(1-u) avoids log(0)).
  double Exponential(double mean) { return -mean * std::log1p(-Uniform()); }

  // True with probability p.
  bool Bernoulli(double p) { return Uniform() < p; }

 private:
  static uint64_t Rotl(uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
  static uint64_t SplitMix(uint64_t& x) {
    uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }
  uint64_t s_[4];
};

}  // namespace dcqcn
