#ifndef MLEBENCH_BASE_ID_REGISTRY_H_
#define MLEBENCH_BASE_ID_REGISTRY_H_

#include <cstdio>
#include <cstdlib>
#include <functional>
#include <map>
#include <string>
#include <string_view>
#include <vector>

namespace mlebench {

// A process-wide map from competition id to an entry `T` (which has a
// `std::string id` member), filled at static-initialisation time. One
// instantiation serves graders, preparers and synthetic datasets alike.
template <typename T>
class IdRegistry {
 public:
  // Registers `entry`; a second registration of the same id aborts: it is a
  // programming error that every test binary linking both would catch.
  static bool Register(T entry) {
    auto [it, inserted] = Entries().emplace(entry.id, entry);
    if (!inserted) {
      std::fprintf(stderr, "'%s' registered twice\n", it->first.c_str());
      std::abort();
    }
    return true;
  }
  // The entry for `id`, or nullptr.
  static const T* Find(std::string_view id) {
    auto it = Entries().find(id);
    return it == Entries().end() ? nullptr : &it->second;
  }
  // Every entry, sorted by id.
  static std::vector<const T*> All() {
    std::vector<const T*> all;
    for (const auto& [id, entry] : Entries()) all.push_back(&entry);
    return all;
  }

 private:
  static std::map<std::string, T, std::less<>>& Entries() {
    static auto* entries = new std::map<std::string, T, std::less<>>();
    return *entries;
  }
};

}  // namespace mlebench

#define MLEBENCH_REGISTRY_CONCAT_INNER(a, b) a##b
#define MLEBENCH_REGISTRY_CONCAT(a, b) MLEBENCH_REGISTRY_CONCAT_INNER(a, b)
// Registers `entry` into `Registry` when the enclosing library is loaded (link
// such libraries with alwayslink = 1).
#define MLEBENCH_REGISTER_IN(Registry, ...)                                          \
  static const bool MLEBENCH_REGISTRY_CONCAT(mlebench_registered_, __LINE__) = \
      Registry::Register(__VA_ARGS__)

#endif  // MLEBENCH_BASE_ID_REGISTRY_H_
