// A fixed-step RK4 integrator for delay-differential equations with one constant delay. Delayed
// states come from cubic Hermite interpolation of the stored solution, and a step is split where
// the delayed value of one component crosses a threshold (a kink or jump of the right-hand side)
// or at a breakpoint time (a flow start), so that RK4 only ever integrates a smooth right-hand
// side.
#pragma once

#include <algorithm>
#include <cassert>
#include <cmath>
#include <cstddef>
#include <functional>
#include <span>
#include <vector>

namespace dcqcn::fluid {

// Solution knots (t, y, y') for the last delay and a little more. Two knots may share a time:
// the left and right derivative at a point where the right-hand side changes form.
class HermiteHistory {
 public:
  explicit HermiteHistory(int dim) : dim_(dim) {}

  int dim() const { return dim_; }
  size_t size() const { return t_.size() - head_; }
  double last_time() const { return t_.back(); }

  void Push(double t, const double* y, const double* dy) {
    t_.push_back(t);
    y_.insert(y_.end(), y, y + dim_);
    dy_.insert(dy_.end(), dy, dy + dim_);
  }
  void SetLastDerivative(const double* dy) { std::copy(dy, dy + dim_, dy_.end() - dim_); }
  // Forgets knots no longer needed to interpolate at times >= t.
  void Trim(double t) {
    while (head_ + 1 < t_.size() && t_[head_ + 1] <= t) ++head_;
    if (head_ > 4096 && head_ * 2 > t_.size()) {
      t_.erase(t_.begin(), t_.begin() + static_cast<std::ptrdiff_t>(head_));
      y_.erase(y_.begin(), y_.begin() + static_cast<std::ptrdiff_t>(head_ * dim_));
      dy_.erase(dy_.begin(), dy_.begin() + static_cast<std::ptrdiff_t>(head_ * dim_));
      head_ = 0;
    }
  }

  // Interpolation weights at one time, reusable for every component.
  struct Point {
    size_t k0 = 0, k1 = 0;       // knot indices
    double w[4] = {1, 0, 0, 0};  // of y[k0], y'[k0], y[k1], y'[k1]
  };
  Point Locate(double s) const {
    assert(s >= t_[head_] - 1e-15 && s <= t_.back() + 1e-15);
    // The last knot at or before s (the right-derivative copy where two share a time).
    auto it = std::upper_bound(t_.begin() + static_cast<std::ptrdiff_t>(head_), t_.end(), s);
    size_t k = it == t_.begin() + static_cast<std::ptrdiff_t>(head_)
                   ? head_
                   : static_cast<size_t>(it - t_.begin()) - 1;
    Point p;
    p.k0 = p.k1 = k;
    if (k + 1 >= t_.size()) return p;
    const double dt = t_[k + 1] - t_[k];
    if (dt <= 0) return p;
    const double th = std::clamp((s - t_[k]) / dt, 0.0, 1.0);
    const double th2 = th * th, th3 = th2 * th;
    p.k1 = k + 1;
    p.w[0] = 2 * th3 - 3 * th2 + 1;
    p.w[1] = dt * (th3 - 2 * th2 + th);
    p.w[2] = -2 * th3 + 3 * th2;
    p.w[3] = dt * (th3 - th2);
    return p;
  }
  double Value(const Point& p, int c) const {
    const size_t i0 = p.k0 * dim_ + c, i1 = p.k1 * dim_ + c;
    return p.w[0] * y_[i0] + p.w[1] * dy_[i0] + p.w[2] * y_[i1] + p.w[3] * dy_[i1];
  }

  // The earliest time in (a, b] where the interpolated component c moves from one of the intervals
  // that `levels` (sorted) cut the line into to another; b when it never does. Times within `eps`
  // after a are ignored (a is usually the previous crossing).
  double FirstCrossing(int c, std::span<const double> levels, double a, double b,
                       double eps) const {
    if (levels.empty()) return b;
    auto region = [&](double v) {
      return static_cast<int>(std::upper_bound(levels.begin(), levels.end(), v) - levels.begin());
    };
    auto value = [&](double s) { return Value(Locate(s), c); };
    // Points between which the cubic pieces are monotone: knots and critical points.
    std::vector<double>& pts = scratch_;
    pts.clear();
    pts.push_back(std::min(a + eps, b));
    auto it = std::upper_bound(t_.begin() + static_cast<std::ptrdiff_t>(head_), t_.end(), a);
    size_t k = it == t_.begin() + static_cast<std::ptrdiff_t>(head_)
                   ? head_
                   : static_cast<size_t>(it - t_.begin()) - 1;
    for (; k + 1 < t_.size() && t_[k] < b; ++k) {
      const double dt = t_[k + 1] - t_[k];
      if (dt <= 0) continue;
      const double y0 = y_[k * dim_ + c], y1 = y_[(k + 1) * dim_ + c];
      const double m0 = dt * dy_[k * dim_ + c], m1 = dt * dy_[(k + 1) * dim_ + c];
      const double c1 = m0, c2 = 3 * (y1 - y0) - 2 * m0 - m1, c3 = 2 * (y0 - y1) + m0 + m1;
      // roots of c1 + 2 c2 th + 3 c3 th^2
      const double qa = 3 * c3, qb = 2 * c2, qc = c1;
      double roots[2];
      int n = 0;
      if (std::abs(qa) < 1e-300) {
        if (std::abs(qb) > 1e-300) roots[n++] = -qc / qb;
      } else {
        const double disc = qb * qb - 4 * qa * qc;
        if (disc >= 0) {
          const double sq = std::sqrt(disc);
          roots[n++] = (-qb - sq) / (2 * qa);
          roots[n++] = (-qb + sq) / (2 * qa);
        }
      }
      std::sort(roots, roots + n);
      for (int i = 0; i < n; ++i) {
        const double s = t_[k] + roots[i] * dt;
        if (roots[i] > 0 && roots[i] < 1 && s > pts.back() && s < b) pts.push_back(s);
      }
      if (t_[k + 1] > pts.back() && t_[k + 1] < b) pts.push_back(t_[k + 1]);
    }
    if (b > pts.back()) pts.push_back(b);
    double prev_s = pts[0];
    double prev_v = value(prev_s);
    for (size_t i = 1; i < pts.size(); ++i) {
      const double s = pts[i], v = value(s);
      const int r0 = region(prev_v), r1 = region(v);
      if (r0 != r1) {
        double lo = prev_s, hi = s;
        for (int iter = 0; iter < 100 && hi - lo > 1e-15 * std::max(1.0, std::abs(hi)); ++iter) {
          const double mid = 0.5 * (lo + hi);
          (region(value(mid)) == r0 ? lo : hi) = mid;
        }
        return hi;
      }
      prev_s = s;
      prev_v = v;
    }
    return b;
  }

 private:
  int dim_;
  size_t head_ = 0;
  std::vector<double> t_, y_, dy_;
  mutable std::vector<double> scratch_;
};

// What selects the smooth piece of the right-hand side on one sub-step: the interval of the
// delayed split component among the levels, and the number of breakpoints passed.
struct Piece {
  int region = 0;
  int segment = 0;
  double t_mid = 0;
  bool operator==(const Piece& o) const { return region == o.region && segment == o.segment; }
};

// System requirements:
//   int Dim() const;
//   void Derivative(double t, const double* y, const HermiteHistory& h, const Piece& piece,
//                   double* dy) const;        // dy/dt; delayed values from h at t - delay
//   void Project(double* y) const;           // clamps after a step (q >= 0, rates <= C)
template <class System>
class DdeRk4 {
 public:
  // History before t0: the caller pushes knots (at least one at t0 - delay and one at t0) with
  // PushHistory, ending with the initial state at t0. `split_component` (or -1) and `levels`
  // define where the right-hand side has kinks in the delayed value; `breakpoints` are times
  // where it changes form.
  DdeRk4(const System& system, double t0, double step, double delay, int split_component,
         std::vector<double> levels, std::vector<double> breakpoints)
      : sys_(system),
        dim_(system.Dim()),
        hist_(dim_),
        t0_(t0),
        t_(t0),
        h_(step),
        delay_(delay),
        split_component_(split_component),
        levels_(std::move(levels)),
        breakpoints_(std::move(breakpoints)),
        y_(dim_),
        k1_(dim_),
        k2_(dim_),
        k3_(dim_),
        k4_(dim_),
        tmp_(dim_),
        next_(dim_) {
    assert(step > 0 && step <= delay);
    std::sort(breakpoints_.begin(), breakpoints_.end());
  }

  void PushHistory(double t, std::span<const double> y, std::span<const double> dy) {
    hist_.Push(t, y.data(), dy.data());
    std::copy(y.begin(), y.end(), y_.begin());
    t_ = t;
  }

  // Component c never goes below 0: the system cuts its derivative there, and a step that
  // would take it below ends where it reaches 0.
  void SetNonNegative(int c) { nonneg_component_ = c; }

  double time() const { return t_; }
  std::span<const double> state() const { return y_; }
  const HermiteHistory& history() const { return hist_; }
  long steps() const { return steps_; }
  long splits() const { return splits_; }

  // Integrates to t_end, stopping at every multiple of the step after t0.
  void AdvanceTo(double t_end) {
    while (t_ < t_end - 1e-12 * h_) {
      const double n_next = std::floor((t_ - t0_) / h_ + 1e-9) + 1;
      double t_next = std::min(t0_ + n_next * h_, t_end);
      bool kink = false;  // t_next is a point where the right-hand side changes form
      auto bp = std::upper_bound(breakpoints_.begin(), breakpoints_.end(), t_ + 1e-12 * h_);
      if (bp != breakpoints_.end() && *bp <= t_next) {
        t_next = *bp;
        kink = true;
      }
      while (!echoes_.empty() && echoes_.front() <= t_ + 1e-9 * h_) {
        std::pop_heap(echoes_.begin(), echoes_.end(), std::greater<>());
        echoes_.pop_back();
      }
      if (!echoes_.empty() && echoes_.front() < t_next) {
        t_next = echoes_.front();
        kink = false;
      }
      if (split_component_ >= 0) {
        const double s =
            hist_.FirstCrossing(split_component_, levels_, t_ - delay_, t_next - delay_, 1e-9 * h_);
        if (s + delay_ < t_next - 1e-9 * h_) {
          t_next = s + delay_;
          kink = true;
          ++splits_;
        }
      }
      Substep(t_next);
      if (kink) {
        // A jump in y' at t_next reappears one and two delays later as a jump in the second and
        // third derivatives (through the delayed terms): end steps there too so that RK4 keeps
        // its order.
        for (int i = 1; i <= 2; ++i) {
          echoes_.push_back(t_next + i * delay_);
          std::push_heap(echoes_.begin(), echoes_.end(), std::greater<>());
        }
      }
    }
  }

 private:
  Piece PieceAt(double t_mid) const {
    Piece p;
    p.t_mid = t_mid;
    p.segment = static_cast<int>(std::upper_bound(breakpoints_.begin(), breakpoints_.end(), t_mid) -
                                 breakpoints_.begin());
    if (split_component_ >= 0) {
      const double v = hist_.Value(hist_.Locate(t_mid - delay_), split_component_);
      p.region =
          static_cast<int>(std::upper_bound(levels_.begin(), levels_.end(), v) - levels_.begin());
    }
    return p;
  }

  void Rk4(double dt, const Piece& piece, double* out) {
    for (int i = 0; i < dim_; ++i) tmp_[i] = y_[i] + 0.5 * dt * k1_[i];
    sys_.Derivative(t_ + 0.5 * dt, tmp_.data(), hist_, piece, k2_.data());
    for (int i = 0; i < dim_; ++i) tmp_[i] = y_[i] + 0.5 * dt * k2_[i];
    sys_.Derivative(t_ + 0.5 * dt, tmp_.data(), hist_, piece, k3_.data());
    for (int i = 0; i < dim_; ++i) tmp_[i] = y_[i] + dt * k3_[i];
    sys_.Derivative(t_ + dt, tmp_.data(), hist_, piece, k4_.data());
    for (int i = 0; i < dim_; ++i) {
      out[i] = y_[i] + dt / 6 * (k1_[i] + 2 * k2_[i] + 2 * k3_[i] + k4_[i]);
    }
  }

  void Substep(double t_next) {
    double dt = t_next - t_;
    const Piece piece = PieceAt(t_ + 0.5 * dt);
    sys_.Derivative(t_, y_.data(), hist_, piece, k1_.data());
    if (!has_piece_) {
      // The caller's history ends at t_ with its own derivative (e.g. 0 for a constant history).
      hist_.Push(t_, y_.data(), k1_.data());
    } else if (!(piece == piece_)) {
      // The right-hand side changes form at t_: keep its left derivative on the knot and add a
      // knot with the right one.
      sys_.Derivative(t_, y_.data(), hist_, piece_, tmp_.data());
      hist_.SetLastDerivative(tmp_.data());
      hist_.Push(t_, y_.data(), k1_.data());
    } else {
      hist_.SetLastDerivative(k1_.data());
    }
    piece_ = piece;
    has_piece_ = true;
    Rk4(dt, piece, next_.data());
    const int c = nonneg_component_;
    if (c >= 0 && y_[c] > 0 && next_[c] < 0) {
      // The component would go below its floor of 0, where its derivative is cut: end the step
      // where it reaches 0 (regula falsi), so that no stage integrates past the kink.
      double a = 0, fa = y_[c], b = dt, fb = next_[c];
      for (int iter = 0; iter < 8 && fb < -1e-12 * (1 + y_[c]); ++iter) {
        const double m =
            std::clamp(b - fb * (b - a) / (fb - fa), a + 1e-3 * (b - a), b - 1e-3 * (b - a));
        Rk4(m, piece, next_.data());
        if (next_[c] < 0) {
          b = m;
          fb = next_[c];
        } else {
          a = m;
          fa = next_[c];
        }
      }
      if (next_[c] >= 0 || b != dt) Rk4(b, piece, next_.data());
      dt = b;
      next_[c] = 0;
    }
    std::copy(next_.begin(), next_.end(), y_.begin());
    sys_.Project(y_.data());
    t_ += dt;
    // The new knot's derivative is set by the next sub-step (k1, or the left derivative).
    hist_.Push(t_, y_.data(), k4_.data());
    hist_.Trim(t_ - delay_ - h_);
    ++steps_;
  }

  const System& sys_;
  int dim_;
  HermiteHistory hist_;
  double t0_, t_, h_, delay_;
  int split_component_;
  std::vector<double> levels_, breakpoints_;
  std::vector<double> echoes_;  // min-heap of propagated breakpoints
  std::vector<double> y_, k1_, k2_, k3_, k4_, tmp_, next_;
  int nonneg_component_ = -1;
  Piece piece_;
  bool has_piece_ = false;
  long steps_ = 0, splits_ = 0;
};

}  // namespace dcqcn::fluid
