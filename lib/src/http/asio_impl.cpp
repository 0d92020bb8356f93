// The one translation unit that compiles Asio (with its SSL layer) and Beast (see
// BOOST_ASIO_SEPARATE_COMPILATION in lib/CMakeLists.txt): every other file includes only their
// declarations, which keeps builds on small machines bearable.
#include <boost/asio/impl/src.hpp>
#include <boost/asio/ssl/impl/src.hpp>
#include <boost/beast/src.hpp>
