#pragma once
// Where the crawler's requests go: one request per call, with the http_client's shape. The crawl
// is run with an http_fetcher; tests give it a fetcher that answers from memory.

#include <boost/asio/any_io_executor.hpp>
#include <boost/asio/awaitable.hpp>
#include <cstdint>
#include <span>

#include "http/http_client.hpp"

namespace corocrawl {

class fetcher {
 public:
  virtual ~fetcher() = default;

  /// Requests `target` once as `mode` says (see fetch_mode), with `headers` added: a
  /// response, or an error code and its words; a body `sink` takes goes to it (see
  /// body_sink). Cancellation (the awaiting coroutine's cancellation slot) aborts it.
  virtual boost::asio::awaitable<http_client::result> get(const http_target& target,
                                                          std::span<const http_header> headers,
                                                          fetch_mode mode, body_sink* sink) = 0;

  /// Requests sent and connections opened so far.
  virtual std::uint64_t requests() const = 0;
  virtual std::uint64_t connections() const = 0;

  /// Where threads that are awake anyway may write the requests the fetcher gathered (see
  /// request_sender); nullptr when it gathers none.
  virtual request_sender* request_writer() { return nullptr; }
};

/// The network, through an http_client (see there).
class http_fetcher final : public fetcher {
 public:
  /// Throws config_error as http_client's constructor does.
  http_fetcher(boost::asio::any_io_executor executor, http_client_options options)
      : client_(std::move(executor), std::move(options)) {}

  boost::asio::awaitable<http_client::result> get(const http_target& target,
                                                  std::span<const http_header> headers,
                                                  fetch_mode mode, body_sink* sink) override {
    return client_.get(target, headers, mode, sink);
  }
  std::uint64_t requests() const override { return client_.requests(); }
  std::uint64_t connections() const override { return client_.connections(); }
  request_sender* request_writer() override { return client_.request_writer(); }

  /// See http_client::send_gathered_requests.
  void send_gathered_requests() { client_.send_gathered_requests(); }
  void send_overdue_requests() { client_.send_overdue_requests(); }

 private:
  http_client client_;
};

}  // namespace corocrawl
