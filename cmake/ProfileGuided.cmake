# COROCRAWL_PROFILE: GCC's profile-guided optimisation, in two builds of one build directory
# (scripts/build-optimized runs both, with the crawls that make the profile between them):
# - "generate": every object counts what runs (-fprofile-generate), into COROCRAWL_PROFILE_DIR;
#   the counters are atomic, since a crawl runs parse threads and folder mode a server thread;
# - "use": every object is optimised by those counts, then the whole program at link time
#   (LTO). Code the crawls did not run is optimised as without a profile
#   (-fprofile-partial-training), not for size: HTTPS, say, must not be slow for being untried.
#   LTO without a profile made the compact reading slower (250 against 290 MB/s), so it comes
#   only with one. Its static libraries hold GCC's LTO code only: they are the program's, not
#   for a project that links the library.
# Empty (the default): neither. The profile names each object by its path, so "use" must build
# in the directory "generate" built in.
set(COROCRAWL_PROFILE "" CACHE STRING "Profile-guided optimisation (GCC): generate, use, or empty")
set_property(CACHE COROCRAWL_PROFILE PROPERTY STRINGS "" generate use)
set(COROCRAWL_PROFILE_DIR "${PROJECT_BINARY_DIR}/profile" CACHE PATH
  "Where COROCRAWL_PROFILE=generate writes the profile and =use reads it")

if(COROCRAWL_PROFILE STREQUAL "")
  return()
endif()
if(NOT CMAKE_CXX_COMPILER_ID STREQUAL "GNU")
  message(FATAL_ERROR "COROCRAWL_PROFILE=${COROCRAWL_PROFILE}: profile-guided builds need GCC, "
    "not ${CMAKE_CXX_COMPILER_ID}")
endif()

if(COROCRAWL_PROFILE STREQUAL "generate")
  add_compile_options(-fprofile-generate -fprofile-update=atomic
    "-fprofile-dir=${COROCRAWL_PROFILE_DIR}")
  add_link_options(-fprofile-generate)
elseif(COROCRAWL_PROFILE STREQUAL "use")
  if(NOT IS_DIRECTORY "${COROCRAWL_PROFILE_DIR}")
    message(FATAL_ERROR "COROCRAWL_PROFILE=use: no profile in ${COROCRAWL_PROFILE_DIR} "
      "(build with COROCRAWL_PROFILE=generate and crawl first: scripts/build-optimized)")
  endif()
  include(CheckIPOSupported)
  check_ipo_supported(RESULT lto_supported OUTPUT lto_error LANGUAGES CXX)
  if(NOT lto_supported)
    message(FATAL_ERROR "COROCRAWL_PROFILE=use: link-time optimisation is not supported: "
      "${lto_error}")
  endif()
  # Objects the crawls never ran have no counts: that is expected, not a warning. A source
  # changed since the profile was made is warned of (-Wcoverage-mismatch), not an error.
  add_compile_options(-fprofile-use -fprofile-partial-training
    "-fprofile-dir=${COROCRAWL_PROFILE_DIR}" -Wno-missing-profile
    -Wno-error=coverage-mismatch)
  # GCC 12's link-time optimiser warns falsely of a memcpy bound of SIZE_MAX inside
  # libstdc++'s string assignment, once inlined across objects (CLI11's check_name, the
  # benchmark site's render_href): the -O3 false positives CMakeLists.txt names.
  add_link_options(-Wno-stringop-overflow)
  # With a profile, GCC expands copies and fills of a size known only at run time inline, as
  # `rep movs` and `rep stos`, sized by what the counts suggest (357 and 322 places in the
  # program, against 19 and 132 without a profile): a short `rep movs` costs tens of cycles
  # where glibc's memcpy, chosen for the CPU it runs on, takes a few, and every string the
  # crawl and its reports copy paid it (the JSON writer's copy was half of its time). Left to
  # glibc, the 10k site's crawl took 8% less CPU. The flag goes to the link too, where LTO
  # generates the code.
  add_compile_options(-mstringop-strategy=libcall)
  add_link_options(-mstringop-strategy=libcall)
  set(CMAKE_INTERPROCEDURAL_OPTIMIZATION ON)
else()
  message(FATAL_ERROR "COROCRAWL_PROFILE=${COROCRAWL_PROFILE}: expected generate, use or empty")
endif()
