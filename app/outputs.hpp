#pragma once
// Which reports the program writes, and where: --output's, --json's, and the text report.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "corocrawl/report.hpp"
#include "settings.hpp"

namespace corocrawl::cli {

/// Where an output goes: a file, or a standard stream.
enum class stream { out, err };

struct output_request {
  report_format format = report_format::text;
  std::optional<std::string> path;  ///< a file; none for a standard stream
  enum stream stream = stream::out;
  std::string_view option = "--output";  ///< the option that asked for it, for errors
};

/// What an output is called in messages: "the JSON summary", "the JUnit report" ...
std::string_view output_name(report_format format);

/// Every output the settings ask for, in order: each --output (or `outputs` entry), --json
/// FILE as `json:FILE`, then the text report unless --report none or an --output writes text
/// already. The text report goes to stdout, or to stderr when another output takes stdout.
/// Throws config_error when two outputs would go to stdout, or one file is named twice.
std::vector<output_request> output_requests(const settings& s);

}  // namespace corocrawl::cli
