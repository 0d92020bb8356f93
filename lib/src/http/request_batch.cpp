#include "http/request_batch.hpp"

#include <sys/socket.h>

#include <cerrno>
#include <utility>

#include "http/connection_pool.hpp"

namespace corocrawl {

request_batch::~request_batch() {
  for (auto& queued : waiting_)
    queued.conn->queued_in = nullptr;
}

void request_batch::add(http_connection& conn, std::string request) {
  if (waiting_.empty()) first_ = std::chrono::steady_clock::now();
  waiting_.push_back({&conn, std::move(request)});
  conn.queued_in = this;
}

void request_batch::send_all() {
  // Writing ends no connection (a failed one is only shut), so none is forgotten meanwhile.
  for (auto& queued : waiting_)
    write(queued);
  waiting_.clear();
}

void request_batch::forget(const http_connection& conn) {
  std::erase_if(waiting_, [&](const waiting& queued) { return queued.conn == &conn; });
}

void request_batch::write(waiting& queued) {
  http_connection& conn = *queued.conn;
  conn.queued_in = nullptr;
  const int socket = conn.tcp().socket().native_handle();
  const std::string& bytes = queued.request;
  ssize_t sent = 0;
  do {
    sent = ::send(socket, bytes.data(), bytes.size(), MSG_NOSIGNAL | MSG_DONTWAIT);
  } while (sent < 0 && errno == EINTR);
  if (sent == static_cast<ssize_t>(bytes.size())) return;
  // A full send buffer (a short write, or none) would mean the server reads none of what it
  // is sent: the request fails as a write that could not finish.
  conn.unsent_error = sent < 0 && errno != EAGAIN && errno != EWOULDBLOCK
                          ? boost::system::error_code(errno, boost::system::system_category())
                          : make_error_code(boost::system::errc::no_buffer_space);
  ::shutdown(socket, SHUT_RDWR);  // the response's read ends now, with an end of stream
}

}  // namespace corocrawl
