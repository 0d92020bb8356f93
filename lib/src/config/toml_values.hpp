// Reading corocrawl.toml values: the one TOML reader of each option kind. Internal.
#pragma once

#include <toml++/toml.h>

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <vector>

#include "config/value_parsers.hpp"
#include "corocrawl/option_table.hpp"

namespace corocrawl {

/// Reads the values of one config file; every error names the file, the line and the key.
class toml_values {
 public:
  /// `display` names the file in errors; relative paths are taken from `dir`.
  toml_values(std::string display, std::filesystem::path dir)
      : display_(std::move(display)), dir_(std::move(dir)) {}

  /// The value `node` gives the option `spec` under `key`, as `spec.kind` takes it. Throws
  /// config_error for a value of the wrong type or range.
  option_value read(const option_spec& spec, std::string_view key, const toml::node& node) const;

  /// Throws config_error: "FILE:LINE: what".
  [[noreturn]] void fail_at(const toml::source_region& where, std::string_view what) const;

 private:
  [[noreturn]] void wrong_type(const toml::node& node, std::string_view key,
                               std::string_view expected) const;
  template <typename Parse>
  auto located(const toml::node& node, Parse&& parse) const;
  int count(const toml::node& node, std::string_view key, count_range range) const;
  std::int64_t integer(const toml::node& node, std::string_view key) const;
  bool boolean(const toml::node& node, std::string_view key) const;
  const std::string& string(const toml::node& node, std::string_view key) const;
  const toml::table& table(const toml::node& node, std::string_view key) const;
  std::pair<double, std::string> number(const toml::node& node, std::string_view key,
                                        std::string_view expected) const;
  std::vector<const toml::node*> strings(const toml::node& node, std::string_view key) const;
  std::uint64_t byte_size(const toml::node& node, std::string_view key,
                          const option_spec& spec) const;
  std::vector<http_header> headers(const toml::node& node, const std::string& path) const;
  std::map<std::string, std::vector<http_header>> hosts(const toml::node& node,
                                                        std::string_view key) const;
  std::string host_name(const toml::key& key, std::string_view path) const;
  status_codes codes(const toml::node& node, std::string_view key) const;
  std::vector<status_rule> rules(const toml::node& node, std::string_view key) const;

  std::string display_;
  std::filesystem::path dir_;
};

}  // namespace corocrawl
