#pragma once
// A JSON string's value as a std::string, for the tests that read corocrawl's summaries.

#include <boost/json/value.hpp>
#include <boost/json/value_to.hpp>
#include <string>

namespace corocrawl::testing {

inline std::string text(const boost::json::value& v) {
  return boost::json::value_to<std::string>(v);
}

}  // namespace corocrawl::testing
