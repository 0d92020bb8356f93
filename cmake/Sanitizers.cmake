# COROCRAWL_SANITIZERS: a comma-separated list such as "address,undefined" (empty: none).
set(COROCRAWL_SANITIZERS "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")
add_library(corocrawl_sanitizers INTERFACE)
if(COROCRAWL_SANITIZERS)
  target_compile_options(corocrawl_sanitizers INTERFACE
    -fsanitize=${COROCRAWL_SANITIZERS} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(corocrawl_sanitizers INTERFACE -fsanitize=${COROCRAWL_SANITIZERS})
  if(COROCRAWL_SANITIZERS MATCHES "thread")
    # ThreadSanitizer does not model std::atomic_thread_fence. Asio's reference counts (the
    # shared executor of a strand held in an any_io_executor, which the parse threads and the
    # crawl's thread both release) order their last release with such a fence, so TSan
    # reports the delete as a race. Without std::atomic Asio counts with atomic read-modify-
    # writes that TSan does see.
    # (Asio's fenced_block then uses no std::atomic_thread_fence either, which GCC's -Wtsan
    # warned of.)
    target_compile_definitions(corocrawl_sanitizers INTERFACE BOOST_ASIO_DISABLE_STD_ATOMIC)
  endif()
endif()
