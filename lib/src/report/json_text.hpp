#pragma once
// A string for the JSON documents: written as valid UTF-8 whatever its bytes, since every
// string in them comes from outside (servers, the command line, a config file) and a document
// with invalid UTF-8 would not parse.

#include <boost/json/string.hpp>
#include <string_view>

#include "corocrawl/utf8.hpp"

namespace corocrawl {

inline boost::json::string json_text(std::string_view value) {
  return boost::json::string(to_valid_utf8(value));
}

}  // namespace corocrawl
