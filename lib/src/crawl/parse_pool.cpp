#include "crawl/parse_pool.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <system_error>

namespace corocrawl {

parse_pool::parse_pool(unsigned threads) {
  const unsigned wanted = threads > 0 ? threads : std::max(1U, std::thread::hardware_concurrency());
  threads_.reserve(wanted);
  for (unsigned i = 0; i < wanted; ++i) {
    try {
      threads_.emplace_back([this] { pool_.attach(); });
    } catch (const std::system_error& e) {
      if (threads_.empty()) {
        throw std::system_error(e.code(), "cannot start a thread to parse pages");
      }
      spdlog::warn(
          "the system allows only {} of the {} parse threads asked for ({}): going on "
          "with {}",
          threads_.size(), wanted, e.code().message(), threads_.size());
      break;
    }
  }
}

parse_pool::~parse_pool() {
  pool_.stop();
  for (auto& thread : threads_)
    thread.join();
}

}  // namespace corocrawl
