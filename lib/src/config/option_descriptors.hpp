// The pieces the option table is built from: a descriptor of a crawl_options member, and the
// table's groups, each added by its own file. Internal to the option table.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "corocrawl/option_table.hpp"

namespace corocrawl::option_descriptors {

template <typename T>
option_value to_value(const T& value) {
  return value;
}

template <typename T>
option_value to_value(const std::optional<T>& value) {
  return value ? option_value(*value) : option_value{};
}

template <typename T>
void from_value(T& into, option_value&& value) {
  into = std::get<T>(std::move(value));
}

template <typename T>
void from_value(std::optional<T>& into, option_value&& value) {
  into = std::get<T>(std::move(value));
}

/// A descriptor whose value is the crawl_options member `Member`.
template <auto Member>
option<crawl_options> member(option_spec spec) {
  return {std::move(spec),
          [](crawl_options& c, option_value&& v) { from_value(c.*Member, std::move(v)); },
          [](const crawl_options& c) { return to_value(c.*Member); }};
}

/// The Crawl and Checking groups, in --help's order.
void add_crawl_options(std::vector<option<crawl_options>>& t);
/// The HTTP, Politeness, TLS, Identity and Proxy groups, in --help's order.
void add_network_options(std::vector<option<crawl_options>>& t);

}  // namespace corocrawl::option_descriptors
