#pragma once
// What a folder's server (static_site_server) answers a request with.

#include <boost/beast/core/error.hpp>
#include <boost/beast/http/message.hpp>
#include <boost/beast/http/message_generator.hpp>
#include <boost/beast/http/string_body.hpp>
#include <optional>
#include <string_view>

#include "serve/confined_directory.hpp"

namespace corocrawl::site {

using request = boost::beast::http::request<boost::beast::http::string_body>;
using response = boost::beast::http::response<boost::beast::http::string_body>;

/// The answer to `req` from `root` served at `mount` (see static_site_server): the file, 301
/// to a directory's "/", its index.html, 404, or 405. `unavailable` is set when a file could
/// not be opened for the process's own limits (descriptors, memory): it is answered 503.
boost::beast::http::message_generator answer(const confined_directory& root, std::string_view mount,
                                             const request& req, bool& unavailable);

/// The answer to a request that could not be read (`ec`), after which the connection is
/// closed: 400, 413 or 431; nullopt when the client went away and nobody is left to answer.
std::optional<response> answer_to_unreadable(const boost::beast::error_code& ec);

}  // namespace corocrawl::site
