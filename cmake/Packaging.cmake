# The Debian package: `cpack -G DEB` in a build directory (scripts/package builds and checks
# it). It holds the "program" component, which is what a user of the command line needs: the
# binary, the man page, the shell completions, the documentation and the example config. The
# static libraries, headers and CMake package (component "development", lib/CMakeLists.txt)
# are for building against corocrawl and stay out.

set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGE_NAME corocrawl)
set(CPACK_PACKAGE_VERSION "${PROJECT_VERSION}")
set(CPACK_PACKAGE_VENDOR "corocrawl developers")
set(CPACK_PACKAGE_CONTACT "corocrawl developers")
# Debian's synopsis: a noun phrase without an article.
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "fast, dependable website crawler and link checker")
# Only the program component, as one package named corocrawl (no component suffix).
set(CPACK_INSTALL_CMAKE_PROJECTS "${PROJECT_BINARY_DIR};${PROJECT_NAME};program;/")
set(CPACK_STRIP_FILES ON)
set(CPACK_PACKAGE_CHECKSUM SHA256)
# No Homepage field: the project has no public home page yet.
set(CPACK_PACKAGE_HOMEPAGE_URL "")

set(CPACK_DEBIAN_PACKAGE_MAINTAINER "corocrawl developers")
set(CPACK_DEBIAN_PACKAGE_SECTION web)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
# The dependencies are the shared libraries dpkg-shlibdeps finds the binary linked against
# (Boost.URL and Boost.JSON, gumbo, spdlog, toml++, libidn2, expat, zlib...), as Debian 12
# packages them, and OpenSSL.
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
# libssl is loaded when the first https URL needs it (src/http/openssl_loader.hpp), so the
# binary does not name it and dpkg-shlibdeps cannot find it: Debian 12's libssl3 is named
# here, and CPack adds the dependencies dpkg-shlibdeps finds to it.
set(CPACK_DEBIAN_PACKAGE_DEPENDS "libssl3 (>= 3.0.0)")
# corocrawl_VERSION_ARCH.deb, as Debian names packages.
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
# The extended description, after the synopsis; CPack indents it as the control file wants.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION
    "corocrawl crawls a website, or a local folder of built HTML, with many concurrent
requests and checks everything its pages reference: links, frames, stylesheets, images,
scripts, media, the URLs in CSS, links to other sites and #fragments. It honours
robots.txt, can add the pages of sitemaps, and reports every broken URL with the places
that reference it: a report on the terminal, a JSON summary for CI, and an exit status
CI can act on.")

include(CPack)
