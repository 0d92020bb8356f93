# Warnings for our own targets: every target links corocrawl_warnings.
# -Wno-missing-field-initializers: GCC 12 flags C++20 designated initializers that rely on
# default member initializers, which is exactly how we want to write them.
# -Wno-mismatched-new-delete: GCC 12 pairs Asio's awaitable frame operator new (its recycling
# allocator) with the sized operator delete after inlining and reports a mismatch that is not
# there (GCC PR 109224); whether it fires depends on how a coroutine inlines.
# -Wno-subobject-linkage in unity builds (CMAKE_UNITY_BUILD, which the presets set): GCC warns
# of a class whose member's type has internal linkage unless the class is defined in the main
# file, and in a unity build the main file is the generated one that includes ours.
add_library(corocrawl_warnings INTERFACE)
target_compile_options(corocrawl_warnings INTERFACE
  -Wall -Wextra -Wpedantic -Wshadow -Wnon-virtual-dtor -Wcast-align -Wunused
  -Woverloaded-virtual -Wimplicit-fallthrough -Wno-missing-field-initializers
  $<$<CXX_COMPILER_ID:GNU>:-Wno-mismatched-new-delete>
  $<$<AND:$<CXX_COMPILER_ID:GNU>,$<BOOL:${CMAKE_UNITY_BUILD}>>:-Wno-subobject-linkage>
  $<$<BOOL:${COROCRAWL_WARNINGS_AS_ERRORS}>:-Werror>)
