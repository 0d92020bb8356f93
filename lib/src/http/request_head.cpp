#include "http/request_head.hpp"

#include <vector>

#include "text/ascii.hpp"

namespace corocrawl {
namespace {

std::string_view without_spaces_around(std::string_view value) {
  const auto is_space = [](char c) { return c == ' ' || c == '\t'; };
  while (!value.empty() && is_space(value.front()))
    value.remove_prefix(1);
  while (!value.empty() && is_space(value.back()))
    value.remove_suffix(1);
  return value;
}

}  // namespace

std::string request_head(std::string_view method, std::string_view target,
                         std::span<const header_field> fields) {
  // The fields that stay, in the order they go: a later field of the same name wins.
  std::vector<const header_field*> kept;
  kept.reserve(fields.size());
  std::size_t size = method.size() + target.size() + 13;  // " ", " HTTP/1.1\r\n", "\r\n"
  for (const header_field& field : fields) {
    std::erase_if(kept,
                  [&field](const header_field* k) { return ascii::iequals(k->name, field.name); });
    kept.push_back(&field);
  }
  for (const header_field* field : kept)
    size += field->name.size() + field->value.size() + 4;
  std::string head;
  head.reserve(size);
  head.append(method).append(" ").append(target).append(" HTTP/1.1\r\n");
  for (const header_field* field : kept) {
    head.append(field->name).append(": ").append(without_spaces_around(field->value));
    head.append("\r\n");
  }
  head.append("\r\n");
  return head;
}

}  // namespace corocrawl
