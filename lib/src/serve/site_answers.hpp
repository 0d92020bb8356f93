#pragma once
// What a folder's server (static_site_server) answers a request with.

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/beast/http/string_body.hpp>
#include <optional>
#include <string_view>

#include "serve/confined_directory.hpp"
#include "serve/static_site_server.hpp"

namespace corocrawl::site {

using request = boost::beast::http::request<boost::beast::http::string_body>;
using response = boost::beast::http::response<boost::beast::http::string_body>;

inline std::string_view to_std(boost::beast::string_view text) {
  return {text.data(), text.size()};
}

/// The answer to `req` from `root` served at `mount` (see static_site_server): the file, 301
/// to a directory's "/", its index.html, 404, or 405. `trouble` is set when a file could not
/// be opened for the process's own limits (descriptors, memory): it is answered 503.
boost::beast::http::message_generator answer(const confined_directory& root, std::string_view mount,
                                             const request& req, server_trouble& trouble);

/// The answer to a request that could not be read (`ec`), after which the connection is
/// closed: 400, 413 or 431; nullopt when the client went away and nobody is left to answer.
std::optional<response> answer_to_unreadable(const boost::beast::error_code& ec);

}  // namespace corocrawl::site
