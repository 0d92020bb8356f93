#include "http/waiting_body.hpp"

#include <sys/ioctl.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstddef>

namespace corocrawl {

bool waiting_body::read_into(std::span<char> into) const {
  if (into.size() != size_) return false;
  std::size_t got = 0;
  while (got < into.size()) {
    const auto read = ::recv(fd_, into.data() + got, into.size() - got, MSG_DONTWAIT);
    if (read > 0) {
      got += static_cast<std::size_t>(read);
    } else if (read < 0 && errno == EINTR) {
      continue;
    } else {
      return false;  // the end of the stream, a reset, or nothing more now
    }
  }
  return true;
}

bool waiting_body::waiting(int fd, std::uint64_t bytes) {
  int held = 0;
  return ::ioctl(fd, FIONREAD, &held) == 0 && held >= 0 &&
         static_cast<std::uint64_t>(held) >= bytes;
}

}  // namespace corocrawl
