#pragma once
// Errors that reach the edges of the library.

#include <stdexcept>
#include <string>

namespace corocrawl {

/// A usage or configuration problem: a bad option, config key, root or regex. The message is
/// one line that names the option or key and the problem; the CLI prints it and exits with 2.
class config_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace corocrawl
