#pragma once
// OpenSSL's libraries are loaded when the first https URL needs them. corocrawl (the program)
// is linked without them: libssl and libcrypto take 1.7 MiB of a crawl's memory from the
// moment they are mapped (libcrypto's relocations and symbol tables are read as it loads), a
// sixth of a plain-HTTP or folder crawl's memory before its first page. The program's calls
// into them go through openssl_on_demand.cpp, which finds each function here. Programs that
// link OpenSSL themselves (the library's users, the tests) load nothing more: the library is
// mapped already, and this only looks it up.

#include <optional>
#include <string>

namespace corocrawl {

/// The file name of the libssl the build's headers describe ("libssl.so.3").
const char* openssl_library_name();

/// Loads libssl, and the libcrypto it needs, unless loaded already: nothing when they are
/// there, else why not (a line naming the library and the loader's error). Thread-safe; the
/// first call decides for the life of the process.
std::optional<std::string> load_openssl();

/// The address of libssl's or libcrypto's function `name`, loading them first if needed. A
/// call without them, or for a function they lack, ends the process with a message: the
/// program calls OpenSSL only after load_openssl() said yes (see http_client).
void* openssl_function(const char* name);

}  // namespace corocrawl
