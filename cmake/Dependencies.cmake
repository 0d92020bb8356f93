# Every dependency comes from Debian 12's packages (scripts/install-deps lists them). The
# installed package finds the libraries' dependencies again (corocrawlConfig.cmake.in): keep
# the two in step.
find_package(Boost 1.81.0 EXACT CONFIG REQUIRED COMPONENTS url json)
find_package(spdlog CONFIG REQUIRED)
find_package(tomlplusplus CONFIG REQUIRED)
find_package(CLI11 CONFIG REQUIRED)
find_package(Threads REQUIRED)
find_package(ZLIB REQUIRED)
find_package(EXPAT REQUIRED)
find_package(OpenSSL 3 REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(gumbo REQUIRED IMPORTED_TARGET gumbo)
pkg_check_modules(libidn2 REQUIRED IMPORTED_TARGET libidn2)
# xxHash's header only: its functions are compiled in where they are used (text/text_hashes.hpp),
# so the program loads no library for it and an installed package needs nothing of it.
find_path(XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
if(COROCRAWL_BUILD_TESTS)
  find_package(GTest CONFIG REQUIRED)
endif()
