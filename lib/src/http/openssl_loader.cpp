#include "http/openssl_loader.hpp"

#include <dlfcn.h>
#include <openssl/opensslv.h>

#include <cstdio>
#include <cstdlib>

namespace corocrawl {
namespace {

#define COROCRAWL_STRINGIFY_VALUE(x) #x
#define COROCRAWL_STRINGIFY(x) COROCRAWL_STRINGIFY_VALUE(x)
constexpr const char* kLibssl = "libssl.so." COROCRAWL_STRINGIFY(OPENSSL_SHLIB_VERSION);
#undef COROCRAWL_STRINGIFY
#undef COROCRAWL_STRINGIFY_VALUE

struct loaded_library {
  void* handle = nullptr;
  std::string error;  // when handle is null
};

// Loaded once, by whichever thread asks first (a function-local static is initialised once).
const loaded_library& libssl() {
  static const loaded_library library = [] {
    loaded_library result;
    // RTLD_LOCAL: the functions are found through the handle, whose scope has libcrypto too.
    result.handle = ::dlopen(kLibssl, RTLD_NOW | RTLD_LOCAL);
    if (result.handle == nullptr) {
      const char* why = ::dlerror();
      result.error = std::string("cannot load ") + kLibssl +
                     ", which https needs: " + (why != nullptr ? why : "unknown error");
    }
    return result;
  }();
  return library;
}

[[noreturn]] void fail(const std::string& message) {
  std::fprintf(stderr, "corocrawl: %s\n", message.c_str());
  std::abort();
}

}  // namespace

const char* openssl_library_name() {
  return kLibssl;
}

std::optional<std::string> load_openssl() {
  const loaded_library& library = libssl();
  if (library.handle != nullptr) return std::nullopt;
  return library.error;
}

void* openssl_function(const char* name) {
  const loaded_library& library = libssl();
  if (library.handle == nullptr) fail(library.error);
  void* const function = ::dlsym(library.handle, name);
  if (function == nullptr) fail(std::string(kLibssl) + " has no function " + name);
  return function;
}

}  // namespace corocrawl
