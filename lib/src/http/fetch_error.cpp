#include "http/fetch_error.hpp"

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>
#include <boost/beast/core/error.hpp>
#include <boost/beast/http/error.hpp>

namespace corocrawl {

namespace asio = boost::asio;
namespace beast = boost::beast;
namespace http = beast::http;
namespace ssl = asio::ssl;
using boost::system::error_code;

namespace {

// boost::system::error_category's destructor is protected and non-virtual by design.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wnon-virtual-dtor"
class fetch_category_impl final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "corocrawl.fetch"; }
  std::string message(int ev) const override {
    switch (static_cast<fetch_errc>(ev)) {
      case fetch_errc::body_too_large:
        return "body too large";
      case fetch_errc::bad_address:
        return "bad --resolve address";
      case fetch_errc::tls:
        return "TLS handshake failed";
      case fetch_errc::bad_encoding:
        return "body does not decode";
      case fetch_errc::proxy_refused:
        return "the proxy refused the connection";
      case fetch_errc::bad_status:
        return "status is not 100-599";
      case fetch_errc::unasked_upgrade:
        return "101 Switching Protocols without an upgrade request";
    }
    return "unknown fetch error";
  }
};
#pragma GCC diagnostic pop

}  // namespace

const boost::system::error_category& fetch_category() noexcept {
  static const fetch_category_impl category;
  return category;
}

error_code make_error_code(fetch_errc e) noexcept {
  return {static_cast<int>(e), fetch_category()};
}

std::string_view failure_kind(const error_code& ec) {
  if (ec == asio::error::connection_refused) return "refused";
  if (ec == asio::error::connection_reset || ec == asio::error::connection_aborted ||
      ec == asio::error::broken_pipe)
    return "reset";
  if (ec == http::error::end_of_stream || ec == asio::error::eof ||
      ec == ssl::error::stream_truncated)
    return "closed";
  if (ec == http::error::partial_message) return "truncated";
  if (ec == beast::error::timeout || ec == asio::error::timed_out) return "timeout";
  if (ec == asio::error::host_not_found || ec == asio::error::host_not_found_try_again ||
      ec == asio::error::no_data || ec == asio::error::no_recovery ||
      ec == asio::error::service_not_found)
    return "dns";
  if (ec == fetch_errc::body_too_large || ec == http::error::body_limit) return "body_too_large";
  if (ec == fetch_errc::tls || ec.category() == asio::error::get_ssl_category()) return "tls";
  if (ec == fetch_errc::proxy_refused) return "proxy";
  if (ec.category() == http::make_error_code(http::error::end_of_stream).category() ||
      ec == fetch_errc::bad_address || ec == fetch_errc::bad_encoding ||
      ec == fetch_errc::bad_status || ec == fetch_errc::unasked_upgrade)
    return "protocol";
  return "network";
}

bool is_retryable(const error_code& ec) {
  if (ec == asio::error::host_not_found_try_again) return true;  // EAI_AGAIN: the resolver's
  const auto kind = failure_kind(ec);
  return kind == "refused" || kind == "reset" || kind == "closed" || kind == "truncated" ||
         kind == "timeout" || kind == "network";
}

std::string describe(const error_code& ec) {
  const auto kind = failure_kind(ec);
  if (kind == "refused") return "connection refused";
  if (kind == "reset") return "connection reset";
  if (kind == "closed") return "connection closed without a response";
  if (kind == "truncated") return "truncated response";
  if (kind == "timeout") return "timed out";
  if (ec == asio::error::host_not_found_try_again) return "host lookup failed for now";
  if (kind == "dns") return "host not found";
  if (kind == "body_too_large") return "body too large";
  if (kind == "protocol") return "bad HTTP response: " + ec.message();
  return ec.message();
}

bool is_out_of_descriptors(const error_code& ec) {
  return ec == asio::error::no_descriptors ||
         ec == boost::system::errc::too_many_files_open_in_system;
}

}  // namespace corocrawl
