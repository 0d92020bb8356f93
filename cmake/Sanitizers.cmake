# COROCRAWL_SANITIZERS: a comma-separated list such as "address,undefined" (empty: none).
set(COROCRAWL_SANITIZERS "" CACHE STRING "Sanitizers to build with, e.g. address,undefined")
add_library(corocrawl_sanitizers INTERFACE)
if(COROCRAWL_SANITIZERS)
  target_compile_options(corocrawl_sanitizers INTERFACE
    -fsanitize=${COROCRAWL_SANITIZERS} -fno-omit-frame-pointer -fno-sanitize-recover=all)
  target_link_options(corocrawl_sanitizers INTERFACE -fsanitize=${COROCRAWL_SANITIZERS})
endif()
