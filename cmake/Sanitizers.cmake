# COROCRAWL_SANITIZERS: a comma-separated list such as "address,undefined" (empty: none).
set(COROCRAWL_SANITIZERS "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")
add_library(corocrawl_sanitizers INTERFACE)
if(COROCRAWL_SANITIZERS)
  target_compile_options(corocrawl_sanitizers INTERFACE
    -fsanitize=${COROCRAWL_SANITIZERS} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(corocrawl_sanitizers INTERFACE -fsanitize=${COROCRAWL_SANITIZERS})
  # GCC warns (-Wtsan) that ThreadSanitizer does not model std::atomic_thread_fence, which
  # Asio's fenced_block puts around handlers; the scheduler's mutex, which TSan does see,
  # orders those handlers too.
  if(COROCRAWL_SANITIZERS MATCHES "thread" AND CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
    target_compile_options(corocrawl_sanitizers INTERFACE -Wno-tsan)
  endif()
endif()
