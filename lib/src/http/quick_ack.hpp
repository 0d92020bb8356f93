#pragma once
// Acknowledging a response's data as it arrives. Linux acknowledges late (up to 40 ms) on a
// connection that alternates requests and responses, expecting the next request to carry the
// acknowledgement; but a server that may send no more until it is acknowledged (its
// congestion window or send buffer full) then waits for that timer in the middle of a
// response. On loopback, where a segment is up to 64 KiB, that is most responses of a few
// hundred KiB: a crawl of the Python docs from nginx stalled 8-40 ms, several times in some
// runs, each stall as long as the whole download by wrk.

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

namespace corocrawl {

/// Asks the kernel to acknowledge what arrives on TCP socket `fd` at once rather than late,
/// until the socket next sends (Linux's TCP_QUICKACK is not kept: a client sets it again for
/// each response). Best effort: nothing where the option does not exist, or cannot be set.
inline void acknowledge_at_once(int fd) {
#if defined(TCP_QUICKACK)
  const int on = 1;
  (void)::setsockopt(fd, IPPROTO_TCP, TCP_QUICKACK, &on, sizeof on);
#else
  (void)fd;
#endif
}

}  // namespace corocrawl
