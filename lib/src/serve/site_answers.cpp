// The answers of a folder's server (static_site_server): a file, a directory's index or
// redirect, or a small page naming the status.
#include "serve/site_answers.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <boost/beast/http/empty_body.hpp>
#include <limits>
#include <string>
#include <system_error>
#include <utility>

#include "http/content_type.hpp"
#include "serve/static_site_server.hpp"
#include "sys/unique_fd.hpp"

namespace corocrawl::site {

namespace {

namespace beast = boost::beast;
namespace http = beast::http;

constexpr std::string_view server_name = "corocrawl";
constexpr std::string_view html_type = "text/html; charset=utf-8";

std::string_view path_part(std::string_view target) {
  return target.substr(0, target.find_first_of("?#"));
}

// The whole of an open file; nullopt when reading fails.
std::optional<std::string> read_all(int fd, std::size_t expected_size) {
  std::string body;
  body.reserve(expected_size);
  if (read_up_to(fd, std::numeric_limits<std::size_t>::max(), body)) return std::nullopt;
  return body;
}

// What a request names under the root, opened: the decision what it is (directory, file,
// nothing servable) is made on the descriptor, never on a path that could change meanwhile.
struct opened_entry {
  unique_fd fd;
  struct stat status {};
};

// `relative` opened under `root`; nullopt when it is missing or would lead outside (404), or
// when the process is short of descriptors or memory (`trouble` set: 503).
// O_NONBLOCK so that a FIFO in the folder cannot stall the server thread on open.
std::optional<opened_entry> open_entry(const confined_directory& root, std::string_view relative,
                                       server_trouble& trouble) {
  std::error_code ec;
  opened_entry entry{root.open(relative, O_RDONLY | O_NONBLOCK, ec)};
  if (!entry.fd) {
    if (ec != std::errc::no_such_file_or_directory)
      spdlog::debug("static site: cannot open {}: {}", relative, ec.message());
    trouble = trouble_of(ec);
    return std::nullopt;
  }
  if (::fstat(entry.fd.get(), &entry.status) != 0) return std::nullopt;
  return entry;
}

response make_response(http::status status, unsigned version, bool keep_alive,
                       std::string_view type, std::string body) {
  response res{status, version};
  res.set(http::field::server, server_name);
  res.set(http::field::content_type, type);
  res.keep_alive(keep_alive);
  res.body() = std::move(body);
  res.prepare_payload();
  return res;
}

// A small HTML page that names the status, for every answer but 200.
response make_status_page(http::status status, unsigned version, bool keep_alive) {
  const auto reason = to_std(http::obsolete_reason(status));
  std::string title = std::to_string(static_cast<unsigned>(status));
  title += ' ';
  title += reason;
  std::string body = "<!DOCTYPE html>\n<html><head><title>" + title + "</title></head><body><h1>" +
                     title + "</h1></body></html>\n";
  return make_response(status, version, keep_alive, html_type, std::move(body));
}

// A HEAD answer carries the headers a GET would, Content-Length included, but no body.
http::message_generator finish(const request& req, response res) {
  if (req.method() != http::verb::head) return http::message_generator{std::move(res)};
  const auto length = res.body().size();
  http::response<http::empty_body> head{std::move(res.base())};
  head.content_length(length);
  return http::message_generator{std::move(head)};
}

// Where a site mounted at `mount` ("/docs/") lies below a request target: "/docs/a.html" is
// "/a.html"; nullopt for a target outside the mount.
std::optional<std::string_view> below_mount(std::string_view target, std::string_view mount) {
  if (!target.starts_with(mount)) return std::nullopt;
  return target.substr(mount.size() - 1);
}

}  // namespace

http::message_generator answer(const confined_directory& root, std::string_view mount,
                               const request& req, server_trouble& trouble) {
  const auto version = req.version();
  const bool keep_alive = req.keep_alive();
  const auto full_target = to_std(req.target());
  const auto answer = [&](http::status status) {
    return finish(req, make_status_page(status, version, keep_alive));
  };

  if (req.method() != http::verb::get && req.method() != http::verb::head) {
    auto res = make_status_page(http::status::method_not_allowed, version, keep_alive);
    res.set(http::field::allow, "GET, HEAD");
    return finish(req, std::move(res));
  }

  // The mount itself without its final '/' is a directory like any other: redirected.
  const std::string_view mount_prefix = mount.substr(0, mount.size() - 1);
  if (!mount_prefix.empty() && path_part(full_target) == mount_prefix) {
    auto res = make_status_page(http::status::moved_permanently, version, keep_alive);
    auto query = full_target.substr(mount_prefix.size());
    res.set(http::field::location,
            std::string(mount) + std::string(query.substr(0, query.find('#'))));
    return finish(req, std::move(res));
  }
  const auto below = below_mount(full_target, mount);
  if (!below) return answer(http::status::not_found);
  const std::string_view target = *below;
  auto relative = target_to_relative_path(target);
  if (!relative) return answer(http::status::not_found);
  const auto missing = [&] {
    return answer(trouble != server_trouble::none ? http::status::service_unavailable
                                                  : http::status::not_found);
  };
  auto entry = open_entry(root, *relative, trouble);
  if (!entry) return missing();

  const auto dir = path_part(target);
  if (S_ISDIR(entry->status.st_mode)) {
    if (!dir.ends_with('/')) {
      // Relative links in the directory's index only resolve against "dir/".
      auto query = target.substr(dir.size());
      query = query.substr(0, query.find('#'));
      // A leading "//" would make the Location protocol-relative, i.e. another host.
      std::string location(mount);
      location += dir.substr(dir.find_first_not_of('/'));
      location += '/';
      location += query;
      auto res = make_status_page(http::status::moved_permanently, version, keep_alive);
      res.set(http::field::location, location);
      return finish(req, std::move(res));
    }
    // Opened from the root again, under the same rule, so an index.html symlinked outside
    // stays hidden.
    *relative += "/index.html";
    entry = open_entry(root, *relative, trouble);
    if (!entry) return missing();
  } else if (dir.ends_with('/')) {
    return answer(http::status::not_found);  // "page.html/" names no directory
  }
  if (!S_ISREG(entry->status.st_mode)) return answer(http::status::not_found);

  auto body = read_all(entry->fd.get(), static_cast<std::size_t>(entry->status.st_size));
  if (!body) {
    spdlog::debug("static site: cannot read {}", *relative);
    return answer(http::status::internal_server_error);
  }
  return finish(req, make_response(http::status::ok, version, keep_alive,
                                   content_type_for_path(*relative), std::move(*body)));
}

std::optional<response> answer_to_unreadable(const beast::error_code& ec) {
  if (ec == http::error::body_limit)
    return make_status_page(http::status::payload_too_large, 11, false);
  if (ec == http::error::header_limit)
    return make_status_page(http::status::request_header_fields_too_large, 11, false);
  if (ec.category() == beast::error_code{http::error::bad_target}.category() &&
      ec != http::error::partial_message)
    return make_status_page(http::status::bad_request, 11, false);
  return std::nullopt;  // the client went away or the socket failed: nobody to answer
}

}  // namespace corocrawl::site
