#pragma once
// Errors that reach the edges of the library.

#include <stdexcept>
#include <string>
#include <utility>

namespace corocrawl {

/// A usage or configuration problem: a bad option, config key, root or regex. The message is
/// one line that names the option or key and the problem; the CLI prints it and exits with 2.
class config_error : public std::runtime_error {
 public:
  /// `message` with CR and LF turned into spaces: what users typed, or a library said, may hold
  /// them, and the message is one line.
  explicit config_error(std::string message) : std::runtime_error(one_line(std::move(message))) {}

 private:
  static std::string one_line(std::string text) {
    for (char& c : text)
      if (c == '\n' || c == '\r') c = ' ';
    return text;
  }
};

}  // namespace corocrawl
