#ifndef MLEBENCH_PYCOMPAT_PYTHON_LIST_SORT_INTERNAL_H_
#define MLEBENCH_PYCOMPAT_PYTHON_LIST_SORT_INTERNAL_H_

// The algorithm behind python_list_sort.h, generic over the element type and
// the `less` predicate so that other key types (e.g. str) can reuse it:
// CPython 3.11's list.sort (Objects/listobject.c, listsort.txt), i.e. timsort
// with the "powersort" merge policy. Every step that decides which pair is
// compared is reproduced (run detection, minrun, binary insertion, the merge
// order, galloping and its adaptive threshold, the shortcuts taken when a
// merge's remaining run is exhausted), because with a predicate that is not
// a strict weak order (floats with NaN) the result depends on them.

#include <algorithm>
#include <cstddef>
#include <span>
#include <utility>
#include <vector>

namespace mlebench::python_list_sort_internal {

// Sorts `items` ascending in place exactly as CPython 3.11's list.sort() does
// when every comparison it makes is `less(x, y)` (its `x < y`). Stable when
// `less` is a strict weak order. Does not reverse: callers emulate
// reverse=True by reversing before and after, as CPython does.
template <typename T, typename Less>
void CPythonListSort(std::span<T> items, Less less);

template <typename T, typename Less>
class CPythonTimSort {
 public:
  CPythonTimSort(std::span<T> items, Less less)
      : a_(items.data()),
        size_(static_cast<std::ptrdiff_t>(items.size())),
        less_(std::move(less)) {}

  void Sort() {
    if (size_ < 2) return;
    const std::ptrdiff_t minrun = ComputeMinrun(size_);
    std::ptrdiff_t lo = 0;
    std::ptrdiff_t remaining = size_;
    do {
      std::ptrdiff_t n = CountRunMakingAscending(lo, remaining);
      if (n < minrun) {
        const std::ptrdiff_t force = std::min(remaining, minrun);
        BinaryInsertionSort(lo, lo + force, lo + n);
        n = force;
      }
      MergeByPowerBeforePushing(n);
      pending_.push_back({lo, n, 0});
      lo += n;
      remaining -= n;
    } while (remaining > 0);
    // merge_force_collapse: always the top two, unless the third from the
    // top is shorter than the top.
    while (pending_.size() > 1) {
      std::size_t i = pending_.size() - 2;
      if (i > 0 && pending_[i - 1].len < pending_[i + 1].len) --i;
      MergeAt(i);
    }
  }

 private:
  static constexpr std::ptrdiff_t kMinGallop = 7;
  static constexpr std::ptrdiff_t kMaxMinrun = 64;

  struct Run {
    std::ptrdiff_t base;
    std::ptrdiff_t len;
    int power;  // powersort node depth of the boundary after this run
  };

  // merge_compute_minrun: n itself below 64; else the top 6 bits of n, plus
  // one if any lower bit is set.
  static std::ptrdiff_t ComputeMinrun(std::ptrdiff_t n) {
    std::ptrdiff_t r = 0;
    while (n >= kMaxMinrun) {
      r |= n & 1;
      n >>= 1;
    }
    return n + r;
  }

  // count_run as of 3.11: the longest non-descending prefix, or the longest
  // strictly descending one (then reversed in place; ties end it, which is
  // what keeps the reversal stable).
  std::ptrdiff_t CountRunMakingAscending(std::ptrdiff_t lo, std::ptrdiff_t remaining) {
    if (remaining == 1) return 1;
    const std::ptrdiff_t hi = lo + remaining;
    std::ptrdiff_t n = 2;
    if (less_(a_[lo + 1], a_[lo])) {
      for (std::ptrdiff_t i = lo + 2; i < hi && less_(a_[i], a_[i - 1]); ++i) ++n;
      std::reverse(a_ + lo, a_ + lo + n);
    } else {
      for (std::ptrdiff_t i = lo + 2; i < hi && !less_(a_[i], a_[i - 1]); ++i) ++n;
    }
    return n;
  }

  // binarysort: a[lo, start) is sorted; inserts a[start, hi) one by one,
  // each after the last element it is not less than.
  void BinaryInsertionSort(std::ptrdiff_t lo, std::ptrdiff_t hi, std::ptrdiff_t start) {
    if (start == lo) ++start;
    for (; start < hi; ++start) {
      std::ptrdiff_t l = lo;
      std::ptrdiff_t r = start;
      do {
        const std::ptrdiff_t p = l + ((r - l) >> 1);
        if (less_(a_[start], a_[p])) {
          r = p;
        } else {
          l = p + 1;
        }
      } while (l < r);
      std::rotate(a_ + l, a_ + start, a_ + start + 1);
    }
  }

  // powerloop: the depth at which the midpoints of the two runs (scaled to
  // [0, 1) of the list) first fall into different halves.
  static int PowerLoop(std::ptrdiff_t s1, std::ptrdiff_t n1, std::ptrdiff_t n2, std::ptrdiff_t n) {
    int result = 0;
    std::ptrdiff_t a = 2 * s1 + n1;
    std::ptrdiff_t b = a + n1 + n2;
    for (;;) {
      ++result;
      if (a >= n) {
        a -= n;
        b -= n;
      } else if (b >= n) {
        break;
      }
      a <<= 1;
      b <<= 1;
    }
    return result;
  }

  // found_new_run: merges the runs below the top while their power exceeds
  // the new boundary's, then records that power on the top run.
  void MergeByPowerBeforePushing(std::ptrdiff_t n2) {
    if (pending_.empty()) return;
    const Run& top = pending_.back();
    const int power = PowerLoop(top.base, top.len, n2, size_);
    while (pending_.size() > 1 && pending_[pending_.size() - 2].power > power) {
      MergeAt(pending_.size() - 2);
    }
    pending_.back().power = power;
  }

  // gallop_left: k in [0, n] with base[k-1] < key <= base[k], searching
  // outward from `hint` by 1, 3, 7, ... then bisecting.
  std::ptrdiff_t GallopLeft(const T& key, const T* base, std::ptrdiff_t n, std::ptrdiff_t hint) {
    const T* a = base + hint;
    std::ptrdiff_t lastofs = 0;
    std::ptrdiff_t ofs = 1;
    if (less_(a[0], key)) {
      const std::ptrdiff_t maxofs = n - hint;
      while (ofs < maxofs && less_(a[ofs], key)) {
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      }
      if (ofs > maxofs) ofs = maxofs;
      lastofs += hint;
      ofs += hint;
    } else {
      const std::ptrdiff_t maxofs = hint + 1;
      while (ofs < maxofs && !less_(base[hint - ofs], key)) {
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      }
      if (ofs > maxofs) ofs = maxofs;
      const std::ptrdiff_t k = lastofs;
      lastofs = hint - ofs;
      ofs = hint - k;
    }
    ++lastofs;
    while (lastofs < ofs) {
      const std::ptrdiff_t m = lastofs + ((ofs - lastofs) >> 1);
      if (less_(base[m], key)) {
        lastofs = m + 1;
      } else {
        ofs = m;
      }
    }
    return ofs;
  }

  // gallop_right: k in [0, n] with base[k-1] <= key < base[k].
  std::ptrdiff_t GallopRight(const T& key, const T* base, std::ptrdiff_t n, std::ptrdiff_t hint) {
    const T* a = base + hint;
    std::ptrdiff_t lastofs = 0;
    std::ptrdiff_t ofs = 1;
    if (less_(key, a[0])) {
      const std::ptrdiff_t maxofs = hint + 1;
      while (ofs < maxofs && less_(key, base[hint - ofs])) {
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      }
      if (ofs > maxofs) ofs = maxofs;
      const std::ptrdiff_t k = lastofs;
      lastofs = hint - ofs;
      ofs = hint - k;
    } else {
      const std::ptrdiff_t maxofs = n - hint;
      while (ofs < maxofs && !less_(key, a[ofs])) {
        lastofs = ofs;
        ofs = (ofs << 1) + 1;
      }
      if (ofs > maxofs) ofs = maxofs;
      lastofs += hint;
      ofs += hint;
    }
    ++lastofs;
    while (lastofs < ofs) {
      const std::ptrdiff_t m = lastofs + ((ofs - lastofs) >> 1);
      if (less_(key, base[m])) {
        ofs = m;
      } else {
        lastofs = m + 1;
      }
    }
    return ofs;
  }

  // merge_at: merges pending runs i and i+1 (i is the second or third from
  // the top), first trimming the prefix of run i and the suffix of run i+1
  // that are already in place.
  void MergeAt(std::size_t i) {
    std::ptrdiff_t base_a = pending_[i].base;
    std::ptrdiff_t na = pending_[i].len;
    const std::ptrdiff_t base_b = pending_[i + 1].base;
    std::ptrdiff_t nb = pending_[i + 1].len;
    pending_[i].len = na + nb;
    pending_.erase(pending_.begin() + static_cast<std::ptrdiff_t>(i) + 1);

    const std::ptrdiff_t k = GallopRight(a_[base_b], a_ + base_a, na, 0);
    base_a += k;
    na -= k;
    if (na == 0) return;
    nb = GallopLeft(a_[base_a + na - 1], a_ + base_b, nb, nb - 1);
    if (nb <= 0) return;
    if (na <= nb) {
      MergeLo(base_a, na, base_b, nb);
    } else {
      MergeHi(base_a, na, base_b, nb);
    }
  }

  // merge_lo: a = a_[pa, pa+na) is copied out and merged forward with
  // b = a_[pb, pb+nb) (pb == pa + na). Positions are offsets: `dest` and
  // `sb` into a_, `sa` into tmp_.
  void MergeLo(std::ptrdiff_t pa, std::ptrdiff_t na, std::ptrdiff_t pb, std::ptrdiff_t nb) {
    tmp_.assign(a_ + pa, a_ + pa + na);
    T* const t = tmp_.data();
    std::ptrdiff_t dest = pa;
    std::ptrdiff_t sa = 0;
    std::ptrdiff_t sb = pb;
    a_[dest++] = std::move(a_[sb++]);
    --nb;
    if (nb == 0) goto succeed;
    if (na == 1) goto copy_b;
    {
      std::ptrdiff_t min_gallop = min_gallop_;
      for (;;) {
        std::ptrdiff_t acount = 0;
        std::ptrdiff_t bcount = 0;
        // One element at a time until one run wins min_gallop times in a row.
        for (;;) {
          if (less_(a_[sb], t[sa])) {
            a_[dest++] = std::move(a_[sb++]);
            ++bcount;
            acount = 0;
            --nb;
            if (nb == 0) goto succeed;
            if (bcount >= min_gallop) break;
          } else {
            a_[dest++] = std::move(t[sa++]);
            ++acount;
            bcount = 0;
            --na;
            if (na == 1) goto copy_b;
            if (acount >= min_gallop) break;
          }
        }
        // Galloping, while either run keeps winning by MIN_GALLOP or more.
        ++min_gallop;
        do {
          min_gallop -= min_gallop > 1;
          min_gallop_ = min_gallop;
          std::ptrdiff_t k = GallopRight(a_[sb], t + sa, na, 0);
          acount = k;
          if (k) {
            std::move(t + sa, t + sa + k, a_ + dest);
            dest += k;
            sa += k;
            na -= k;
            if (na == 1) goto copy_b;
            // Impossible for a consistent `less`, reachable with NaN.
            if (na == 0) goto succeed;
          }
          a_[dest++] = std::move(a_[sb++]);
          --nb;
          if (nb == 0) goto succeed;

          k = GallopLeft(t[sa], a_ + sb, nb, 0);
          bcount = k;
          if (k) {
            std::move(a_ + sb, a_ + sb + k, a_ + dest);  // dest < sb: forward is safe
            dest += k;
            sb += k;
            nb -= k;
            if (nb == 0) goto succeed;
          }
          a_[dest++] = std::move(t[sa++]);
          --na;
          if (na == 1) goto copy_b;
        } while (acount >= kMinGallop || bcount >= kMinGallop);
        ++min_gallop;  // leaving galloping mode is penalized
        min_gallop_ = min_gallop;
      }
    }
  succeed:
    // What is left of b is already in place (dest + na == sb).
    if (na) std::move(t + sa, t + sa + na, a_ + dest);
    return;
  copy_b:
    // The last element of a goes after the rest of b, without comparing.
    std::move(a_ + sb, a_ + sb + nb, a_ + dest);
    a_[dest + nb] = std::move(t[sa]);
  }

  // merge_hi: b = a_[pb, pb+nb) is copied out and merged backward with
  // a = a_[pa, pa+na) (pb == pa + na). `dest` and `sa` are offsets into a_,
  // `sb` into tmp_; each points at the last unmerged element (and may reach
  // one before its run's start).
  void MergeHi(std::ptrdiff_t pa, std::ptrdiff_t na, std::ptrdiff_t pb, std::ptrdiff_t nb) {
    tmp_.assign(a_ + pb, a_ + pb + nb);
    T* const t = tmp_.data();
    std::ptrdiff_t dest = pb + nb - 1;
    std::ptrdiff_t sa = pa + na - 1;
    std::ptrdiff_t sb = nb - 1;
    a_[dest--] = std::move(a_[sa--]);
    --na;
    if (na == 0) goto succeed;
    if (nb == 1) goto copy_a;
    {
      std::ptrdiff_t min_gallop = min_gallop_;
      for (;;) {
        std::ptrdiff_t acount = 0;
        std::ptrdiff_t bcount = 0;
        for (;;) {
          if (less_(t[sb], a_[sa])) {
            a_[dest--] = std::move(a_[sa--]);
            ++acount;
            bcount = 0;
            --na;
            if (na == 0) goto succeed;
            if (acount >= min_gallop) break;
          } else {
            a_[dest--] = std::move(t[sb--]);
            ++bcount;
            acount = 0;
            --nb;
            if (nb == 1) goto copy_a;
            if (bcount >= min_gallop) break;
          }
        }
        ++min_gallop;
        do {
          min_gallop -= min_gallop > 1;
          min_gallop_ = min_gallop;
          std::ptrdiff_t k = na - GallopRight(t[sb], a_ + pa, na, na - 1);
          acount = k;
          if (k) {
            dest -= k;
            sa -= k;
            // Overlapping, dest > sa: copy backward.
            std::move_backward(a_ + sa + 1, a_ + sa + 1 + k, a_ + dest + 1 + k);
            na -= k;
            if (na == 0) goto succeed;
          }
          a_[dest--] = std::move(t[sb--]);
          --nb;
          if (nb == 1) goto copy_a;

          k = nb - GallopLeft(a_[sa], t, nb, nb - 1);
          bcount = k;
          if (k) {
            dest -= k;
            sb -= k;
            std::move(t + sb + 1, t + sb + 1 + k, a_ + dest + 1);
            nb -= k;
            if (nb == 1) goto copy_a;
            // Impossible for a consistent `less`, reachable with NaN.
            if (nb == 0) goto succeed;
          }
          a_[dest--] = std::move(a_[sa--]);
          --na;
          if (na == 0) goto succeed;
        } while (acount >= kMinGallop || bcount >= kMinGallop);
        ++min_gallop;
        min_gallop_ = min_gallop;
      }
    }
  succeed:
    // What is left of a is already in place.
    if (nb) std::move(t, t + nb, a_ + dest - (nb - 1));
    return;
  copy_a:
    // The first element of b goes before the rest of a, without comparing.
    std::move_backward(a_ + sa + 1 - na, a_ + sa + 1, a_ + dest + 1);
    dest -= na;
    a_[dest] = std::move(t[sb]);
  }

  T* a_;
  std::ptrdiff_t size_;
  Less less_;
  std::vector<T> tmp_;
  std::vector<Run> pending_;
  std::ptrdiff_t min_gallop_ = kMinGallop;
};

template <typename T, typename Less>
void CPythonListSort(std::span<T> items, Less less) {
  CPythonTimSort<T, Less>(items, std::move(less)).Sort();
}

}  // namespace mlebench::python_list_sort_internal

#endif  // MLEBENCH_PYCOMPAT_PYTHON_LIST_SORT_INTERNAL_H_
