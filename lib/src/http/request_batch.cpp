#include "http/request_batch.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <cstddef>
#include <optional>
#include <utility>

#include "http/connection_pool.hpp"

namespace corocrawl {

request_batch::~request_batch() {
  for (auto& queued : waiting_)
    queued.conn->queued_in = nullptr;
  for (const handed& given : handed_) {
    sender_->settle(given.conn);
    given.conn->queued_in = nullptr;
  }
}

void request_batch::add(http_connection& conn, std::string request) {
  if (waiting_.empty()) first_ = std::chrono::steady_clock::now();
  waiting_.push_back({&conn, std::move(request)});
  conn.queued_in = this;
}

void request_batch::send_all() {
  if (waiting_.empty() || hand_over()) return;
  // Writing ends no connection (a failed one is only shut), so none is forgotten meanwhile.
  for (auto& queued : waiting_)
    write(queued);
  waiting_.clear();
}

bool request_batch::hand_over() {
  if (sender_ == nullptr || !sender_->writer_awake()) return false;
  // A slot for each duplicate first: with every connection of a many-origin crawl open, there
  // is none to spare, and the requests are written here.
  const auto before = static_cast<std::ptrdiff_t>(handed_.size());
  const auto not_handed = [&] {
    handed_.erase(handed_.begin() + before, handed_.end());  // their slots given back
    return false;
  };
  for (const auto& queued : waiting_) {
    auto slot = pool_->spare_slot();
    if (!slot) return not_handed();
    handed_.push_back({queued.conn, std::move(*slot)});
  }
  handing_.clear();
  for (auto& queued : waiting_) {
    handing_.push_back(
        {queued.conn, queued.conn->tcp().socket().native_handle(), std::move(queued.request)});
  }
  if (!sender_->offer(handing_)) {
    for (std::size_t i = 0; i < waiting_.size(); ++i)
      waiting_[i].request = std::move(handing_[i].bytes);
    return not_handed();
  }
  waiting_.clear();
  return true;
}

std::optional<request_sender::outcome> request_batch::settle_handed(const http_connection& conn) {
  const auto given = std::ranges::find(handed_, &conn, &handed::conn);
  if (given == handed_.end()) return std::nullopt;  // still waiting here, or settled
  const auto outcome = sender_->settle(&conn);
  // Its duplicate is closed now, or by the writer that took it as soon as it sees it settled.
  handed_.erase(given);
  return outcome;
}

void request_batch::settle(http_connection& conn) {
  const auto outcome = settle_handed(conn);
  if (!outcome || outcome->what == request_sender::fate::not_written) return;
  conn.queued_in = nullptr;
  if (outcome->what == request_sender::fate::failed) conn.unsent_error = outcome->error;
}

void request_batch::forget(const http_connection& conn) {
  std::erase_if(waiting_, [&](const waiting& queued) { return queued.conn == &conn; });
  settle_handed(conn);
}

void request_batch::write(waiting& queued) {
  http_connection& conn = *queued.conn;
  conn.queued_in = nullptr;
  const int socket = conn.tcp().socket().native_handle();
  conn.unsent_error = write_whole(socket, queued.request);
  if (conn.unsent_error) ::shutdown(socket, SHUT_RDWR);  // the response's read ends now
}

}  // namespace corocrawl
