# Warnings for our own targets: every target links corocrawl_warnings.
# -Wno-missing-field-initializers: GCC 12 flags C++20 designated initializers that rely on
# default member initializers, which is exactly how we want to write them.
add_library(corocrawl_warnings INTERFACE)
target_compile_options(corocrawl_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wimplicit-fallthrough -Wno-missing-field-initializers
  $<$<BOOL:${COROCRAWL_WARNINGS_AS_ERRORS}>:-Werror>)
