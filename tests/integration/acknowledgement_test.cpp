// A response's data is acknowledged as it arrives (http/quick_ack.hpp): Linux otherwise
// acknowledges late on a connection of requests and responses, and a server that may send no
// more until acknowledged waited for that timer mid-page. Checked on the client's own
// socket, in this process, after exchanges with a real server on 127.0.0.1.
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

#include <boost/asio/co_spawn.hpp>
#include <boost/asio/detached.hpp>
#include <boost/asio/io_context.hpp>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "http/http_client.hpp"
#include "test_server.hpp"

namespace corocrawl {
namespace {

namespace asio = boost::asio;

#if defined(TCP_QUICKACK)

// The port of the far end of socket `fd`, or none for what is not an IPv4 socket.
std::optional<std::uint16_t> port_of(int fd, bool peer) {
  sockaddr_in address{};
  socklen_t size = sizeof address;
  auto* at = reinterpret_cast<sockaddr*>(&address);
  if ((peer ? ::getpeername(fd, at, &size) : ::getsockname(fd, at, &size)) != 0) return {};
  if (address.sin_family != AF_INET) return {};
  return ntohs(address.sin_port);
}

// This process's sockets connected to `port` from another port: the client's side.
std::vector<int> client_sockets_to(std::uint16_t port) {
  std::vector<int> found;
  for (const auto& entry : std::filesystem::directory_iterator("/proc/self/fd")) {
    const int fd = std::stoi(entry.path().filename().string());
    if (port_of(fd, true) == port && port_of(fd, false) != port) found.push_back(fd);
  }
  return found;
}

asio::awaitable<void> fetch_each(http_client& client, std::uint16_t port,
                                 std::vector<std::string> paths, std::vector<unsigned>& statuses) {
  for (const auto& path : paths) {
    const http_target target{false, "127.0.0.1", port, path};
    const auto fetched = co_await client.get(target, {});
    statuses.push_back(fetched.ec ? 0 : fetched.response.status);
  }
}

// Each request was sent right after the response before it, on one kept-alive connection:
// the kernel took the connection for one of requests and responses, whose acknowledgements
// it delays (TCP_QUICKACK reads 0 then), unless the client asked again for each body that
// continued past the read of its header, as these of 200 KB do.
TEST(Acknowledgement, AResponseIsAcknowledgedAsItArrives) {
  testing::test_server server;
  std::vector<std::string> paths;
  for (int i = 0; i < 4; ++i) {
    paths.push_back("/p" + std::to_string(i));
    server.add_page(paths.back(), {}, std::string(200000, 'x'));
  }
  asio::io_context context;
  http_client client{context.get_executor(), {}};
  std::vector<unsigned> statuses;
  asio::co_spawn(context, fetch_each(client, server.port(), paths, statuses), asio::detached);
  context.run();
  EXPECT_EQ(statuses, std::vector<unsigned>(paths.size(), 200));
  EXPECT_EQ(client.connections(), 1u);

  const auto sockets = client_sockets_to(server.port());
  ASSERT_EQ(sockets.size(), 1u);  // the connection kept alive, idle in the client's pool
  int quick = -1;
  socklen_t size = sizeof quick;
  ASSERT_EQ(::getsockopt(sockets[0], IPPROTO_TCP, TCP_QUICKACK, &quick, &size), 0);
  EXPECT_EQ(quick, 1);
}

#endif

}  // namespace
}  // namespace corocrawl
