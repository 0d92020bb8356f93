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

// The fetch_failure conditions: a code is equivalent to the condition of its kind.
class failure_category_impl final : public boost::system::error_category {
 public:
  const char* name() const noexcept override { return "corocrawl.failure"; }
  std::string message(int ev) const override {
    return std::string(failure_name(static_cast<fetch_failure>(ev)));
  }
  bool equivalent(const error_code& code, int condition) const noexcept override {
    return code && static_cast<int>(failure_kind(code)) == condition;
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

const boost::system::error_category& failure_category() noexcept {
  static const failure_category_impl category;
  return category;
}

boost::system::error_condition make_error_condition(fetch_failure kind) noexcept {
  return {static_cast<int>(kind), failure_category()};
}

fetch_failure failure_kind(const error_code& ec) {
  using enum fetch_failure;
  if (ec == asio::error::connection_refused) return refused;
  if (ec == asio::error::connection_reset || ec == asio::error::connection_aborted ||
      ec == asio::error::broken_pipe)
    return reset;
  if (ec == http::error::end_of_stream || ec == asio::error::eof ||
      ec == ssl::error::stream_truncated)
    return closed;
  if (ec == http::error::partial_message) return truncated;
  if (ec == beast::error::timeout || ec == asio::error::timed_out) return timeout;
  if (ec == asio::error::host_not_found || ec == asio::error::host_not_found_try_again ||
      ec == asio::error::no_data || ec == asio::error::no_recovery ||
      ec == asio::error::service_not_found)
    return dns;
  if (ec == fetch_errc::body_too_large || ec == http::error::body_limit) return body_too_large;
  if (ec == fetch_errc::tls || ec.category() == asio::error::get_ssl_category()) return tls;
  if (ec == fetch_errc::proxy_refused) return proxy;
  if (ec.category() == http::make_error_code(http::error::end_of_stream).category() ||
      ec == fetch_errc::bad_address || ec == fetch_errc::bad_encoding ||
      ec == fetch_errc::bad_status || ec == fetch_errc::unasked_upgrade)
    return protocol;
  return network;
}

bool is_retryable(const error_code& ec) {
  if (ec == asio::error::host_not_found_try_again) return true;  // EAI_AGAIN: the resolver's
  switch (failure_kind(ec)) {
    using enum fetch_failure;
    case refused:
    case reset:
    case closed:
    case truncated:
    case timeout:
    case network:
      return true;
    case dns:
    case tls:
    case protocol:
    case proxy:
    case body_too_large:
      return false;
  }
  return false;
}

std::string describe(const error_code& ec) {
  switch (failure_kind(ec)) {
    using enum fetch_failure;
    case refused:
      return "connection refused";
    case reset:
      return "connection reset";
    case closed:
      return "connection closed without a response";
    case truncated:
      return "truncated response";
    case timeout:
      return "timed out";
    case dns:
      return ec == asio::error::host_not_found_try_again ? "host lookup failed for now"
                                                         : "host not found";
    case body_too_large:
      return "body too large";
    case protocol:
      return "bad HTTP response: " + ec.message();
    case tls:
    case proxy:
    case network:
      return ec.message();
  }
  return ec.message();
}

bool is_out_of_descriptors(const error_code& ec) {
  return ec == asio::error::no_descriptors ||
         ec == boost::system::errc::too_many_files_open_in_system;
}

}  // namespace corocrawl
